#include "request_journal.h"

#include <algorithm>
#include <atomic>

#include "util/json_depth.h"
#include "util/redaction.h"

namespace fake_org::http {

bool path_under(std::string_view path, std::string_view base) {
  if (!base.empty() && base.back() == '/') base.remove_suffix(1);
  return path.substr(0, base.size()) == base &&
         (path.size() == base.size() || path[base.size()] == '/');
}

namespace {

std::string format_wall(std::chrono::system_clock::time_point t) {
  return format_iso8601(TimePoint(std::chrono::duration_cast<Millis>(t.time_since_epoch())));
}

// A JSON body redacted and parsed back, so filters and scenarios can match
// its fields; other bodies as the debug log shows them.
nlohmann::json body_json(const JournalEntry& e) {
  if (e.body_bytes == 0) return nullptr;
  if (e.body.size() != e.body_bytes)
    return "(" + std::to_string(e.body_bytes) + " bytes" +
           (e.content_type.empty() ? std::string() : " of " + e.content_type) +
           "; the journal keeps bodies up to " + std::to_string(kJournalBodyLimit) + " bytes)";
  std::string shown = redact_body(e.content_type, e.body);
  // A form's redaction is the form's text, which may be deeply nested JSON
  // (json_depth.h): shown as text, never parsed.
  if (json_nesting_exceeds(shown)) return shown;
  auto j = nlohmann::json::parse(shown, nullptr, false);
  if (!j.is_discarded() && (j.is_object() || j.is_array())) return j;
  return shown;
}

}  // namespace

void to_json(nlohmann::json& j, const JournalEntry& e) {
  nlohmann::json headers = nlohmann::json::object();
  for (const auto& [name, value] : e.headers) {
    auto it = headers.find(name);
    if (it == headers.end())
      headers[name] = value;
    else
      *it = it->get<std::string>() + ", " + value;
  }
  j = {{"seq", e.seq},
       {"method", e.method},
       {"path", e.path},
       {"query", e.query.empty() ? std::string()
                                 : redact_body("application/x-www-form-urlencoded", e.query)},
       {"status", e.status},
       {"received_at", format_iso8601(e.received_at)},
       {"received_at_wall", format_wall(e.received_wall)},
       {"duration_ms", e.duration_ms},
       {"payment_intent",
        e.payment_intent.empty() ? nlohmann::json() : nlohmann::json(e.payment_intent)},
       {"injected_fault", e.injected_fault},
       {"headers", std::move(headers)},
       {"body", body_json(e)}};
}

RequestJournal::RequestJournal(std::string api_base, size_t capacity)
    : api_base_(std::move(api_base)), capacity_(capacity) {}

bool RequestJournal::covers(std::string_view path) const {
  return path_under(path, api_base_) || path_under(path, "/services/oauth2");
}

JournalEntry& RequestJournal::next_slot_locked() {
  if (head_ == ring_.size()) ring_.emplace_back();  // still filling the ring up
  std::shared_ptr<JournalEntry>& slot = ring_[head_];
  // use_count() only rises under mu_ (list), so 1 here means no listing holds
  // the entry; the fence pairs with a listing's release of its pointer.
  if (slot && slot.use_count() == 1)
    std::atomic_thread_fence(std::memory_order_acquire);
  else
    slot = std::make_shared<JournalEntry>();
  head_ = head_ + 1 == capacity_ ? 0 : head_ + 1;
  if (size_ < capacity_) ++size_;
  return *slot;
}

bool RequestJournal::path_matches(const std::string& path, const std::string& filter) const {
  if (filter.empty()) return true;
  if (path_under(path, filter)) return true;
  return path_under(path, api_base_) && filter.front() == '/' &&
         path_under(std::string_view(path).substr(api_base_.size()), filter);
}

// A pass over at most capacity_ entries, on the admin's request only; under
// the lock it copies pointers, never the entries' strings.
std::vector<std::shared_ptr<const JournalEntry>> RequestJournal::list(
    const JournalFilter& f) const {
  std::vector<std::shared_ptr<const JournalEntry>> out;
  std::lock_guard lock(mu_);
  for (size_t n = 0; n < size_ && out.size() < f.limit; ++n) {  // newest first
    const std::shared_ptr<JournalEntry>& e = ring_[(head_ + capacity_ - 1 - n) % capacity_];
    if (!f.method.empty() && e->method != f.method) continue;
    if (!f.payment_intent.empty() && e->payment_intent != f.payment_intent) continue;
    if (!path_matches(e->path, f.path)) continue;
    out.push_back(e);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

void RequestJournal::clear() {
  // The entries are freed, not kept for reuse: allocated among the records of
  // a busy run, they would pin those pages after a reset (decision 95).
  std::vector<std::shared_ptr<JournalEntry>> gone;
  std::lock_guard lock(mu_);
  gone.swap(ring_);
  head_ = 0;
  size_ = 0;
  next_seq_ = 1;
}

}  // namespace fake_org::http
