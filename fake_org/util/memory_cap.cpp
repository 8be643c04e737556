#include "util/memory_cap.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>

namespace fake_org::util {

namespace {

std::atomic<uint64_t> cap_bytes{0};
std::atomic<uint64_t> last_resident{0};
std::atomic<bool> over_cap{false};
// steady_clock ticks of the last sample; 0: never sampled.
std::atomic<int64_t> last_sample_ticks{0};

}  // namespace

void set_memory_cap(uint64_t bytes) {
  cap_bytes.store(bytes, std::memory_order_relaxed);
  sample_memory(true);
}

uint64_t memory_cap() {
  return cap_bytes.load(std::memory_order_relaxed);
}

std::optional<uint64_t> resident_memory() {
  // fopen, not a stream: this runs as requests start, and must stay cheap.
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return std::nullopt;
  unsigned long long size = 0, resident = 0;
  const int read = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  if (read != 2) return std::nullopt;
  return static_cast<uint64_t>(resident) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

void sample_memory(bool force) {
  const uint64_t cap = cap_bytes.load(std::memory_order_relaxed);
  if (cap == 0) {
    over_cap.store(false, std::memory_order_relaxed);
    return;
  }
  const int64_t now = std::chrono::steady_clock::now().time_since_epoch().count();
  const int64_t interval =
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(kSampleInterval).count();
  int64_t last = last_sample_ticks.load(std::memory_order_relaxed);
  if (!force && last != 0 && now - last < interval) return;
  // One thread per interval reads /proc; the others keep the flag they have.
  if (!force && !last_sample_ticks.compare_exchange_strong(last, now)) return;
  if (force) last_sample_ticks.store(now, std::memory_order_relaxed);
  const std::optional<uint64_t> rss = resident_memory();
  if (!rss) return;
  last_resident.store(*rss, std::memory_order_relaxed);
  over_cap.store(*rss > cap, std::memory_order_relaxed);
}

bool over_memory_cap() {
  return over_cap.load(std::memory_order_relaxed);
}

uint64_t sampled_memory() {
  return last_resident.load(std::memory_order_relaxed);
}

}  // namespace fake_org::util
