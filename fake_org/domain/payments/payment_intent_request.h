#pragma once
// The body of POST /PaymentIntent (spec 2.3 to 2.8, 4.1) as a typed request,
// with the operation it asks for. Parsing checks shape only (presence, types,
// which operation); the org's configuration is checked by the operations.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "domain/core/errors.h"

namespace fake_org {

enum class Operation { kNewOneTime, kNewRecurring, kPayInstallment, kUpdateRecurring };
// The inbound report's cpm__Operation__c picklist value: "New One-Time", ...
const char* to_string(Operation op);

struct PaymentMethodInput {
  std::string name, processor, target;
  nlohmann::json parameters = nlohmann::json::object();
  bool parameters_given = false;
  // The processor's required parameters are already on file (the mandate of
  // an installment paid again without a PaymentMethod block): not asked for.
  bool parameters_on_file = false;
};

struct OneTimeInput {
  std::optional<nlohmann::json> amount;
  std::string currency;
  std::string id;
  nlohmann::json crm_fields = nlohmann::json::object();
};

struct RecurringInput {
  std::optional<nlohmann::json> amount;
  std::string currency;
  std::string frequency, start_date, end_date;
  std::string id;
  nlohmann::json crm_fields = nlohmann::json::object();
};

struct PaymentIntentRequest {
  Operation operation = Operation::kNewOneTime;
  std::string success_url, failure_url, webhook_url, redirect_url;
  std::string origin, campaign_id, idempotency_key;
  std::optional<nlohmann::json> payer;
  std::optional<OneTimeInput> one_time;
  std::optional<RecurringInput> recurring;
  std::optional<PaymentMethodInput> payment_method;
  std::string source_connector, processing_type;
  nlohmann::json source_connector_parameters = nlohmann::json::object();
  nlohmann::json crm_fields = nlohmann::json::object();
  nlohmann::json package_actions = nlohmann::json::object();
  nlohmann::json raw;  // the body as sent, for the inbound report
  // Which interface the request came through (the inbound report's
  // cpm__Interface__c): "PaymentIntent", or "Payment" for the older /Payment
  // body translated into this request (spec 4.7).
  std::string interface_name = "PaymentIntent";
};

// 010 for missing or contradictory core parameters, 200 for wrong types,
// unknown fields and malformed URLs; all problems at once.
Result<PaymentIntentRequest> parse_payment_intent_request(nlohmann::json body);

}  // namespace fake_org
