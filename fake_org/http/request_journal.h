#pragma once
// The request journal of GET /__admin/requests: the last kJournalCapacity API
// and OAuth requests the org answered (method, path, status, timing, headers,
// body), so a test can assert what its client sent, as WireMock's request log.
//
// Locking rule: one std::mutex guards the ring and the sequence number. A
// worker copies its request into an entry of its own without the lock and
// holds it only to swap that entry with the next slot: the slot's strings
// come back as room for its next request, so once warm, recording allocates
// nothing (moving in fresh entries cost about 3 us of CPU per request in
// malloc and cross-thread frees), and a worker preempted while copying
// (128 connections on 2 cores) keeps no other waiting. Slots are
// shared_ptrs: list() copies only the matches' pointers under the lock, and
// the admin builds the JSON (and redacts, the costly part) after releasing
// it, so a listing never blocks API requests for more than a pointer pass. A
// slot still held by a listing is replaced by a fresh entry, never written
// in place, so what a listing holds does not change under it.
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "domain/core/clock.h"
#include "util/thread_cache.h"

namespace fake_org::http {

// Bounded so a long-running org stays small; a constant rather than a fixture
// key because 1000 requests cover any one test, and DELETE clears between them.
inline constexpr size_t kJournalCapacity = 1000;
// Bodies up to this size are kept; a larger one only by its size, so bodies
// near org.max_body_bytes do not grow the journal (see the header caps below).
inline constexpr size_t kJournalBodyLimit = 64 * 1024;
// A header value over this many bytes is kept cut, marked "...[truncated, N
// bytes]", a name cut at kJournalHeaderNameLimit; past kJournalHeaderCount
// headers the rest are counted, not kept. With httplib's 8 KiB URI limit
// this bounds an entry to about 170 KB, so 1000 entries stay within about
// 170 MB whatever clients send.
inline constexpr size_t kJournalHeaderNameLimit = 256;
inline constexpr size_t kJournalHeaderValueLimit = 1024;
inline constexpr size_t kJournalHeaderCount = 64;
// The pseudo-header that says how many headers were not kept.
inline constexpr const char* kJournalHeadersDropped = "(headers not kept)";
// The body room a worker keeps between requests for its next entry.
inline constexpr size_t kSpareBodyRoom = 4096;

struct JournalEntry {
  uint64_t seq = 0;  // 1, 2, ... in the order the answers were sent; restarts on clear
  std::string method;
  std::string path;   // as requested, API base path included
  std::string query;  // raw; secret-named parameters are redacted when shown
  int status = 0;
  TimePoint received_at{};                                // org clock
  std::chrono::system_clock::time_point received_wall{};  // real time
  double duration_ms = 0;
  std::string payment_intent;   // when the handler knew one
  bool injected_fault = false;  // answered by POST /__admin/faults, not the operation
  // Already redacted and capped (kJournalHeaderValueLimit, kJournalHeaderCount).
  std::vector<std::pair<std::string, std::string>> headers;
  std::string content_type;
  std::string body;       // raw (empty when over kJournalBodyLimit); redacted when shown
  size_t body_bytes = 0;  // the request body's size
};

// The entry as GET /__admin/requests shows it: body and query redacted, the
// body as JSON when it is JSON.
void to_json(nlohmann::json& j, const JournalEntry& e);

struct JournalFilter {
  std::string method;               // exact; empty: any
  std::string path;                 // the path or one under it, whole or relative to the API base
  std::string payment_intent;       // exact
  size_t limit = kJournalCapacity;  // the newest `limit` of the matches
};

class RequestJournal {
 public:
  RequestJournal(std::string api_base, size_t capacity = kJournalCapacity);

  // Whether requests to `path` are journaled: the API's and OAuth's.
  bool covers(std::string_view path) const;
  // Calls fill(entry) with this thread's spare entry, outside the lock, then
  // swaps it into the oldest slot (or a new one until the ring is full): the
  // lock covers a swap, and the slot's old strings are the spare's room next
  // time. fill must assign every field but seq.
  template <typename Fill>
  void record_with(Fill&& fill) {
    thread_local JournalEntry spare;
    // Its strings came from slots other threads filled: after a reset they
    // would pin pages all over the freed heap.
    thread_local const bool hooked =
        (util::on_thread_give_back([] { spare = JournalEntry(); }), true);
    (void)hooked;
    fill(spare);
    {
      std::lock_guard lock(mu_);
      JournalEntry& slot = next_slot_locked();
      std::swap(slot, spare);
      slot.seq = next_seq_++;
    }
    // A thread keeps room for a usual body, not for the largest it ever saw.
    if (spare.body.capacity() > kSpareBodyRoom) std::string().swap(spare.body);
  }
  void record(JournalEntry entry) {
    record_with([&entry](JournalEntry& slot) { slot = std::move(entry); });
  }
  // Matching entries, oldest first (newest last); they never change after.
  std::vector<std::shared_ptr<const JournalEntry>> list(const JournalFilter& filter) const;
  void clear();

 private:
  bool path_matches(const std::string& path, const std::string& filter) const;
  JournalEntry& next_slot_locked();

  const std::string api_base_;
  const size_t capacity_;
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<JournalEntry>> ring_;  // grows to capacity_, then reused
  size_t head_ = 0;                                  // the slot the next entry goes to
  size_t size_ = 0;                                  // entries held (the newest size_ before head_)
  uint64_t next_seq_ = 1;
};

// Whether `path` is `base` or a path under it, segment by segment.
bool path_under(std::string_view path, std::string_view base);

}  // namespace fake_org::http
