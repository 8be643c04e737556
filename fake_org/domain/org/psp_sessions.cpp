#include "psp_sessions.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <utility>

#include "domain/store/field_map.h"
#include "domain/store/field_values.h"
#include "domain/store/length_prefix.h"

namespace fake_org {

PackedTexts::PackedTexts(std::initializer_list<std::string_view> texts) {
  if (texts.size() > 255) throw std::length_error("PackedTexts holds at most 255 texts");
  size_t total = 1;
  for (std::string_view t : texts) total += length_prefix::size(t.size()) + t.size();
  if (total == 1 + texts.size()) return;  // all empty: at() gives "" without a block
  block_.reset(new char[total]);
  char* p = block_.get();
  *p++ = static_cast<char>(texts.size());
  for (std::string_view t : texts) {
    p = length_prefix::write(p, t.size());
    if (!t.empty()) std::memcpy(p, t.data(), t.size());
    p += t.size();
  }
}

std::string_view PackedTexts::at(size_t i) const {
  if (!block_) return {};
  const char* p = block_.get();
  const size_t count = static_cast<unsigned char>(*p++);
  if (i >= count) return {};
  for (size_t k = 0;; ++k) {
    uint32_t n;
    p = length_prefix::read(p, n);
    if (k == i) return {p, n};
    p += n;
  }
}

size_t PackedTexts::heap_bytes() const {
  if (!block_) return 0;
  const size_t count = static_cast<unsigned char>(block_[0]);  // never 0: no block then
  const std::string_view last = at(count - 1);                 // its length prefix is before it
  return static_cast<size_t>(last.data() + last.size() - block_.get());
}

size_t PspSessionStore::heap_bytes() const {
  std::lock_guard lock(mu_);
  size_t bytes = slots_.capacity() * sizeof(Stored) + free_.capacity() * sizeof(uint32_t) +
                 by_created_.capacity() * sizeof(Opened) + by_id_.heap_bytes() +
                 newest_by_installment_.heap_bytes();
  for (const Stored& s : slots_) bytes += s.fixed.heap_bytes() + s.outcome.heap_bytes();
  return bytes;
}

namespace {

// The pseudo field each coded text is shared under (FieldValues keys its
// tables by a FieldNames number); never a record's field name.
uint32_t coded_name(size_t c) {
  static const std::array<uint32_t, 9> names = [] {
    const char* text[] = {
        "PspSession.method",      "PspSession.processor", "PspSession.target",
        "PspSession.currency",    "PspSession.amount",    "PspSession.success_url",
        "PspSession.failure_url", "PspSession.status",    "PspSession.last_outcome"};
    std::array<uint32_t, 9> out{};
    for (size_t i = 0; i < out.size(); ++i) out[i] = FieldNames::intern(text[i]);
    return out;
  }();
  return names[c];
}

}  // namespace

std::string_view PspSessionStore::code(Stored& s, size_t c, std::string_view text) {
  static_assert(kCoded == 9, "coded_name() names every coded text");
  const auto bit = static_cast<uint16_t>(1u << c);
  s.coded = static_cast<uint16_t>(s.coded & ~bit);
  if (text.empty()) return text;
  const std::optional<uint8_t> number = FieldValues::intern(coded_name(c), text);
  if (!number) return text;
  s.coded = static_cast<uint16_t>(s.coded | bit);
  s.codes[c] = *number;
  return {};
}

std::string_view PspSessionStore::text(const Stored& s, Fixed f) {
  const size_t c = f >= kMethod && f <= kFailureUrl ? coded_index(f) : kCoded;
  if (c < kCoded && (s.coded >> c & 1)) return FieldValues::text(coded_name(c), s.codes[c]);
  return s.fixed.at(f);
}

std::string_view PspSessionStore::text(const Stored& s, Outcome o) {
  const size_t c = o <= kLastOutcome ? coded_index(o) : kCoded;
  if (c < kCoded && (s.coded >> c & 1)) return FieldValues::text(coded_name(c), s.codes[c]);
  return s.outcome.at(o);
}

void PspSessionStore::pack_outcome(Stored& stored, const PspSession& s) {
  stored.outcome =
      PackedTexts{code(stored, coded_index(kStatus), s.status),
                  code(stored, coded_index(kLastOutcome), s.last_outcome), s.payment_id};
}

PspSessionStore::Stored PspSessionStore::pack(const PspSession& s) {
  Stored out;
  const std::string amount = s.amount.dump();
  auto coded = [&](Fixed f, std::string_view t) { return code(out, coded_index(f), t); };
  out.fixed = PackedTexts{s.id,
                          s.installment_id,
                          s.payment_intent_id,
                          s.recurring_id,
                          coded(kMethod, s.method),
                          coded(kProcessor, s.processor),
                          coded(kTarget, s.target),
                          coded(kCurrency, s.currency),
                          coded(kAmount, amount),
                          coded(kSuccessUrl, s.success_url),
                          coded(kFailureUrl, s.failure_url),
                          s.superseded_mandate_id};
  pack_outcome(out, s);
  out.created = s.created;
  out.attempts = s.attempts;
  out.kind = s.kind;
  return out;
}

PspSession PspSessionStore::unpack(const Stored& s) {
  PspSession out;
  auto fixed = [&](Fixed f) { return std::string(text(s, f)); };
  out.id = fixed(kId);
  out.installment_id = fixed(kInstallmentId);
  out.payment_intent_id = fixed(kPaymentIntentId);
  out.recurring_id = fixed(kRecurringId);
  out.method = fixed(kMethod);
  out.processor = fixed(kProcessor);
  out.target = fixed(kTarget);
  out.kind = s.kind;
  out.currency = fixed(kCurrency);
  // Written by dump() in pack(), so it parses; discarded, not thrown, if not.
  out.amount = nlohmann::json::parse(text(s, kAmount), nullptr, false);
  if (out.amount.is_discarded()) out.amount = nullptr;
  out.success_url = fixed(kSuccessUrl);
  out.failure_url = fixed(kFailureUrl);
  out.superseded_mandate_id = fixed(kSupersededMandateId);
  out.status = std::string(text(s, kStatus));
  out.last_outcome = std::string(text(s, kLastOutcome));
  out.payment_id = std::string(text(s, kPaymentId));
  out.attempts = s.attempts;
  out.created = s.created;
  return out;
}

void PspSessionStore::keep_outcome(Stored& stored, const PspSession& s) {
  pack_outcome(stored, s);
  stored.attempts = s.attempts;
  if (sink_) {
    PspSession saved = unpack(stored);
    sink_->put(state_kind::kPspSession, saved.id, saved_psp_session(saved));
  }
}

PspSessionStore::Stored* PspSessionStore::find_open(std::string_view id, TimePoint now) {
  return const_cast<Stored*>(std::as_const(*this).find_open(id, now));
}

const PspSessionStore::Stored* PspSessionStore::find_open(std::string_view id,
                                                          TimePoint now) const {
  auto slot = slot_of(id);
  if (!slot || expired(slots_[*slot], now)) return nullptr;
  return &slots_[*slot];
}

namespace {

// The slot a table files under `key` whose own text `field` is `key`.
template <typename Slots>
std::optional<uint32_t> filed_under(const SlotTable& table, const Slots& slots, size_t field,
                                    std::string_view key, uint32_t hash) {
  std::optional<uint32_t> found;
  table.for_each(hash, [&](uint32_t s) {
    if (slots[s].fixed.at(field) != key) return true;
    found = s;
    return false;
  });
  return found;
}

}  // namespace

std::optional<uint32_t> PspSessionStore::slot_of(std::string_view id) const {
  return filed_under(by_id_, slots_, kId, id, key_hash(id));
}

std::optional<uint32_t> PspSessionStore::newest_of(std::string_view installment_id) const {
  return filed_under(newest_by_installment_, slots_, kInstallmentId, installment_id,
                     key_hash(installment_id));
}

std::optional<PspSession> PspSessionStore::get(const std::string& id) const {
  const TimePoint now = now_or_never();
  std::lock_guard lock(mu_);
  const Stored* s = find_open(id, now);
  if (!s) return std::nullopt;
  return unpack(*s);
}

std::optional<PspSession> PspSessionStore::find_by_installment(
    const std::string& installment_id) const {
  const TimePoint now = now_or_never();
  std::lock_guard lock(mu_);
  auto newest = newest_of(installment_id);
  if (!newest || expired(slots_[*newest], now)) return std::nullopt;
  return unpack(slots_[*newest]);
}

void PspSessionStore::reset() {
  // Swapped out, not cleared: clear() keeps a busy run's capacity (6 MB
  // after 80,000 sessions), and the sessions are freed after the lock.
  std::vector<Stored> slots;
  std::vector<uint32_t> free;
  std::vector<Opened> by_created;
  std::lock_guard lock(mu_);
  slots.swap(slots_);
  free.swap(free_);
  by_created.swap(by_created_);
  by_id_.clear();
  newest_by_installment_.clear();
  if (sink_) sink_->clear(state_kind::kPspSession);
}

void PspSessionStore::put_session(const PspSession& session, bool to_sink) {
  Stored packed = pack(session);  // before the lock: it allocates
  const TimePoint now = now_or_never();
  std::lock_guard lock(mu_);
  forget_expired(now);
  if (auto old = slot_of(session.id)) remove(*old);
  uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    if (slots_.size() > SlotTable::kMaxSlot) throw std::length_error("too many PSP sessions");
    slot = static_cast<uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  packed.generation = slots_[slot].generation;
  slots_[slot] = std::move(packed);
  const Stored& stored = slots_[slot];
  by_id_.insert(key_hash(stored.fixed.at(kId)), slot);
  by_created_.push_back({stored.created, slot, stored.generation});
  std::push_heap(by_created_.begin(), by_created_.end(), std::greater<>());
  const std::string_view installment = stored.fixed.at(kInstallmentId);
  if (!installment.empty()) {
    auto newest = newest_of(installment);
    if (!newest || !(stored.created < slots_[*newest].created)) {
      if (newest) newest_by_installment_.erase(key_hash(installment), *newest);
      newest_by_installment_.insert(key_hash(installment), slot);
    }
  }
  if (sink_ && to_sink) sink_->put(state_kind::kPspSession, session.id, saved_psp_session(session));
}

// The oldest first, while their time is over (the clock may have moved
// back: a session created "later" waits for its own time). Entries of
// sessions replaced or already gone are dropped on the way.
void PspSessionStore::forget_expired(TimePoint now) {
  if (!clock_) return;
  while (!by_created_.empty()) {
    const Opened top = by_created_.front();
    const Stored& s = slots_[top.slot];
    const bool stale = s.generation != top.generation;  // replaced or forgotten
    if (!stale && now - top.created < expiry_) break;
    std::pop_heap(by_created_.begin(), by_created_.end(), std::greater<>());
    by_created_.pop_back();
    if (stale) continue;
    if (sink_) sink_->erase(state_kind::kPspSession, s.fixed.at(kId));
    remove(top.slot);
  }
}

void PspSessionStore::remove(uint32_t slot) {
  Stored& s = slots_[slot];
  by_id_.erase(key_hash(s.fixed.at(kId)), slot);
  const std::string_view installment = s.fixed.at(kInstallmentId);
  if (!installment.empty()) newest_by_installment_.erase(key_hash(installment), slot);
  s.fixed = PackedTexts();
  s.outcome = PackedTexts();
  ++s.generation;
  free_.push_back(slot);
}

}  // namespace fake_org
