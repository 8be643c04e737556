#include "psp_sessions.h"

namespace fake_org {

nlohmann::json saved_psp_session(const PspSession& s) {
  return {{"id", s.id},
          {"payment_intent_id", s.payment_intent_id},
          {"installment_id", s.installment_id},
          {"recurring_id", s.recurring_id},
          {"method", s.method},
          {"processor", s.processor},
          {"target", s.target},
          {"kind", to_string(s.kind)},
          {"currency", s.currency},
          {"amount", s.amount},
          {"success_url", s.success_url},
          {"failure_url", s.failure_url},
          {"status", s.status},
          {"attempts", s.attempts},
          {"last_outcome", s.last_outcome},
          {"payment_id", s.payment_id},
          {"superseded_mandate_id", s.superseded_mandate_id},
          {"created_ms", s.created.time_since_epoch().count()}};
}

std::optional<PspSession> psp_session_from_saved(const nlohmann::json& saved) {
  if (!saved.is_object()) return std::nullopt;
  PspSession s;
  try {
    s.id = saved.at("id").get<std::string>();
    s.payment_intent_id = saved.at("payment_intent_id").get<std::string>();
    s.installment_id = saved.at("installment_id").get<std::string>();
    s.recurring_id = saved.at("recurring_id").get<std::string>();
    s.method = saved.at("method").get<std::string>();
    s.processor = saved.at("processor").get<std::string>();
    s.target = saved.at("target").get<std::string>();
    const std::string kind = saved.at("kind").get<std::string>();
    s.kind = kind == "bank"     ? MethodKind::kBank
             : kind == "wallet" ? MethodKind::kWallet
                                : MethodKind::kCard;
    s.currency = saved.at("currency").get<std::string>();
    s.amount = saved.at("amount");
    s.success_url = saved.at("success_url").get<std::string>();
    s.failure_url = saved.at("failure_url").get<std::string>();
    s.status = saved.at("status").get<std::string>();
    s.attempts = saved.at("attempts").get<int>();
    s.last_outcome = saved.at("last_outcome").get<std::string>();
    s.payment_id = saved.at("payment_id").get<std::string>();
    s.superseded_mandate_id = saved.at("superseded_mandate_id").get<std::string>();
    s.created = TimePoint(Millis(saved.at("created_ms").get<int64_t>()));
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
  return s;
}

}  // namespace fake_org
