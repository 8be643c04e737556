#pragma once
// POST /PaymentIntent and the read endpoints (spec 4.1 to 4.3): the four
// operations on one path, idempotency, and the views of what they created.
// Every operation runs in one record-store transaction: a request that fails
// at any point leaves the org as it was.
#include <nlohmann/json.hpp>
#include <string>

#include "org.h"

namespace fake_org {

struct IntentContext {
  std::string public_base_url;  // scheme://host:port clients reach the fake at, for RedirectURL
};

struct IntentResult {
  nlohmann::json body;  // the response body (spec 4.1)
  std::string payment_intent_id;
  bool replayed = false;  // answered from the idempotency store
};

class PaymentIntents {
 public:
  explicit PaymentIntents(Org& org) : org_(org) {}

  Result<IntentResult> create(const nlohmann::json& body, const IntentContext& ctx);
  Result<nlohmann::json> get(std::string_view payment_intent_id) const;   // GET /PaymentIntent/{ID}
  Result<nlohmann::json> installment(std::string_view id_or_guid) const;  // GET /Installment/{ID}

 private:
  Result<IntentResult> execute(const struct PaymentIntentRequest& req, const IntentContext& ctx);
  Org& org_;
};

}  // namespace fake_org
