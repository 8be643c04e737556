#include "permanent.h"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>

namespace fake_org::util {

namespace {

constexpr size_t kPage = 4096;
// A mapping's size: pages are resident only once written, so a large one
// costs what it holds.
constexpr size_t kMapping = 256 * 1024;

struct Area {
  std::mutex mu;
  char* next = nullptr;
  char* end = nullptr;
  std::atomic<size_t> handed{0};
};

Area& area() {
  static Area* a = new Area;  // never destroyed: what it handed out outlives statics
  return *a;
}

char* map_pages(size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return static_cast<char*>(p);
}

char* aligned(char* p, size_t align) {
  const auto at = reinterpret_cast<uintptr_t>(p);
  return p + ((align - at % align) % align);
}

}  // namespace

void* permanent_allocate(size_t n, size_t align) {
  Area& a = area();
  a.handed.fetch_add(n, std::memory_order_relaxed);
  // A block past a quarter of a mapping gets its own: the rest of the
  // current one stays for the small blocks to come.
  if (n > kMapping / 4) return map_pages((n + kPage - 1) & ~(kPage - 1));
  {
    std::lock_guard lock(a.mu);
    char* p = a.next ? aligned(a.next, align) : nullptr;
    if (p && p + n <= a.end) {
      a.next = p + n;
      return p;
    }
  }
  char* fresh = map_pages(kMapping);
  char* p = nullptr;
  {
    std::lock_guard lock(a.mu);
    // Another thread may have mapped one meanwhile: its room is used first.
    p = a.next ? aligned(a.next, align) : nullptr;
    if (!p || p + n > a.end) {
      a.next = fresh + n;
      a.end = fresh + kMapping;
      return fresh;
    }
    a.next = p + n;
  }
  munmap(fresh, kMapping);
  return p;
}

std::string_view permanent_copy(std::string_view text) {
  if (text.empty()) return std::string_view("", 0);
  auto* p = static_cast<char*>(permanent_allocate(text.size(), 1));
  std::memcpy(p, text.data(), text.size());
  return {p, text.size()};
}

size_t permanent_bytes() noexcept {
  return area().handed.load(std::memory_order_relaxed);
}

}  // namespace fake_org::util
