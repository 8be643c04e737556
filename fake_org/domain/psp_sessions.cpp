#include "psp_sessions.h"

#include <cstring>
#include <stdexcept>
#include <utility>

#include "length_prefix.h"

namespace fake_org {

PackedTexts::PackedTexts(std::initializer_list<std::string_view> texts) {
  if (texts.size() > 255) throw std::length_error("PackedTexts holds at most 255 texts");
  size_t total = 1;
  for (std::string_view t : texts) total += length_prefix::size(t.size()) + t.size();
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

PspSessionStore::Stored PspSessionStore::pack(const PspSession& s) {
  Stored out;
  const std::string amount = s.amount.dump();
  out.fixed = PackedTexts{s.id,           s.installment_id, s.payment_intent_id,
                          s.recurring_id, s.method,         s.processor,
                          s.target,       s.currency,       amount,
                          s.success_url,  s.failure_url,    s.superseded_mandate_id};
  out.outcome = PackedTexts{s.status, s.last_outcome, s.payment_id};
  out.created = s.created;
  out.attempts = s.attempts;
  out.kind = s.kind;
  return out;
}

PspSession PspSessionStore::unpack(const Stored& s) {
  PspSession out;
  auto fixed = [&](Fixed f) { return std::string(s.fixed.at(f)); };
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
  out.amount = nlohmann::json::parse(s.fixed.at(kAmount), nullptr, false);
  if (out.amount.is_discarded()) out.amount = nullptr;
  out.success_url = fixed(kSuccessUrl);
  out.failure_url = fixed(kFailureUrl);
  out.superseded_mandate_id = fixed(kSupersededMandateId);
  out.status = std::string(s.outcome.at(kStatus));
  out.last_outcome = std::string(s.outcome.at(kLastOutcome));
  out.payment_id = std::string(s.outcome.at(kPaymentId));
  out.attempts = s.attempts;
  out.created = s.created;
  return out;
}

void PspSessionStore::keep_outcome(Stored& stored, const PspSession& s) {
  stored.outcome = PackedTexts{s.status, s.last_outcome, s.payment_id};
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
  auto it = sessions_.find(id);
  if (it == sessions_.end() || expired(it->second, now)) return nullptr;
  return &it->second;
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
  auto newest = newest_by_installment_.find(installment_id);
  if (newest == newest_by_installment_.end()) return std::nullopt;
  const Stored* s = find_open(newest->second, now);
  if (!s) return std::nullopt;
  return unpack(*s);
}

void PspSessionStore::reset() {
  std::lock_guard lock(mu_);
  newest_by_installment_.clear();
  by_created_.clear();
  sessions_.clear();
  if (sink_) sink_->clear(state_kind::kPspSession);
}

void PspSessionStore::put_session(const PspSession& session, bool to_sink) {
  Stored packed = pack(session);  // before the lock: it allocates
  const TimePoint now = now_or_never();
  std::lock_guard lock(mu_);
  forget_expired(now);
  if (auto old = sessions_.find(session.id); old != sessions_.end()) {
    unlist(old->second);
    sessions_.erase(old);
  }
  const std::string_view id = packed.fixed.at(kId);
  const std::string_view installment = packed.fixed.at(kInstallmentId);
  const TimePoint created = packed.created;
  sessions_.emplace(id, std::move(packed));  // the block moves, the views stay
  by_created_.emplace(created, id);
  if (!installment.empty()) {
    auto newest = newest_by_installment_.find(installment);
    auto shown =
        newest == newest_by_installment_.end() ? sessions_.end() : sessions_.find(newest->second);
    if (shown == sessions_.end() || !(created < shown->second.created)) {
      // Re-keyed, not just re-pointed: the key must view this session's own
      // block, which may outlive the older session's.
      if (newest != newest_by_installment_.end()) newest_by_installment_.erase(newest);
      newest_by_installment_.emplace(installment, id);
    }
  }
  if (sink_ && to_sink) sink_->put(state_kind::kPspSession, session.id, saved_psp_session(session));
}

// The oldest first, while their time is over (the clock may have moved
// back: a session created "later" waits for its own time).
void PspSessionStore::forget_expired(TimePoint now) {
  if (!clock_) return;
  while (!by_created_.empty() && now - by_created_.begin()->first >= expiry_) {
    auto it = sessions_.find(by_created_.begin()->second);
    if (it != sessions_.end()) {
      if (sink_) sink_->erase(state_kind::kPspSession, it->first);
      unlist(it->second);
      sessions_.erase(it);
    } else {
      by_created_.erase(by_created_.begin());
    }
  }
}

void PspSessionStore::unlist(const Stored& s) {
  const std::string_view id = s.fixed.at(kId);
  auto [first, last] = by_created_.equal_range(s.created);
  for (auto it = first; it != last; ++it)
    if (it->second == id) {
      by_created_.erase(it);
      break;
    }
  if (auto newest = newest_by_installment_.find(s.fixed.at(kInstallmentId));
      newest != newest_by_installment_.end() && newest->second == id)
    newest_by_installment_.erase(newest);
}

}  // namespace fake_org
