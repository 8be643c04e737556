#pragma once
// POST /PaymentIntent and the read endpoints (spec 4.1 to 4.3): the four
// operations on one path, idempotency, and the views of what they created.
// Every operation runs in one record-store transaction: a request that fails
// at any point leaves the org as it was.
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "domain/org/org.h"
#include "domain/store/transaction.h"
#include "domain/store/versioned_cache.h"

namespace fake_org {

struct IntentContext {
  std::string public_base_url;  // scheme://host:port clients reach the fake at, for RedirectURL
  // The body's text as the client sent it, kept as the inbound report's raw
  // request (valid for the call); empty: the parsed request is written out.
  std::string_view received_body = {};
};

// The records one successful request ended on, read from its inbound report,
// so another interface (the older /Payment, spec 4.7) can answer from them.
struct IntentRecords {
  std::string contact_id, account_id, installment_id, recurring_id;
  // Whether the contact / account was already in the org before the request.
  bool contact_existed = false, account_existed = false;
  bool person_account = false;     // the contact is a person account's contact
  std::string payment_profile_id;  // the profile a recurring setup created or updated
};

struct IntentResult {
  nlohmann::json body;  // the response body (spec 4.1)
  std::string payment_intent_id;
  bool replayed = false;    // answered from the idempotency store
  IntentRecords records{};  // not filled on a replay
};

// Runs inside the request's transaction after the operation succeeded; an
// error rolls the whole request back.
using AfterOperation = std::function<Status(Transaction&, const IntentRecords&)>;

class PaymentIntents {
 public:
  explicit PaymentIntents(Org& org) : org_(org) {}

  Result<IntentResult> create(nlohmann::json body, const IntentContext& ctx);
  // A request already parsed (or translated from the older /Payment body),
  // without idempotency; `after` may add changes in the same transaction.
  Result<IntentResult> run(const struct PaymentIntentRequest& req, const IntentContext& ctx,
                           const AfterOperation& after = {});
  Result<nlohmann::json> get(std::string_view payment_intent_id) const;  // GET /PaymentIntent/{ID}
  // The same as JSON text, built once per record-store version: polling an
  // intent between commits costs a lookup, not a view and its serialisation.
  Result<std::shared_ptr<const std::string>> get_text(std::string_view payment_intent_id) const;
  Result<nlohmann::json> installment(std::string_view id_or_guid) const;  // GET /Installment/{ID}

 private:
  // `on_commit` (when given) runs in the commit, still under the store's
  // lock, with the response body: what it queues for a data directory then
  // reaches the disk in the same transaction as the records.
  Result<IntentResult> execute(const struct PaymentIntentRequest& req, const IntentContext& ctx,
                               const AfterOperation& after = {},
                               const std::function<void(nlohmann::json)>& on_commit = {});
  Org& org_;
  std::shared_ptr<VersionedCache> texts_ = std::make_shared<VersionedCache>();  // get_text's
};

}  // namespace fake_org
