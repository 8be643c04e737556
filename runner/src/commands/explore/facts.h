#pragma once
// What the explorer needs to know about a target that the schemas cannot
// say: its payment methods and processors (GET /PaymentMethods), the data
// API version it serves. Fetched once through the runner's own session.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "targets/target.h"

namespace runner::explore {

struct MethodFact {
  std::string name;
  std::string processor;          // the default (or first) processor
  bool recurring = false;         // the processor supports recurring payments
  bool initial_required = false;  // InitialPaymentonRecurring: Required
};

// A text field of the catalogue a create may fill (describe: string or
// textarea, createable and updateable).
struct FieldFact {
  std::string name;
  size_t length = 0;
};

struct TargetFacts {
  // Methods a request can name without parameters of its own (bank
  // methods need an IBAN or an account number: left out).
  std::vector<MethodFact> methods;
  std::string api_version = "59.0";
  // The default source connector's frequencies (GET /SourceConnector).
  std::vector<std::string> frequencies = {"Monthly"};
  // Account's text fields besides Name (GET .../sobjects/Account/describe).
  std::vector<FieldFact> account_fields;
  // Account's first external id text field (upserts by it); "" : none.
  std::string account_external_id;
};

// From a GET /PaymentMethods answer; methods with required parameters are
// left out. Pure, for tests.
TargetFacts facts_from_payment_methods(const nlohmann::json& body, TargetFacts base = {});
// From a GET /SourceConnector answer: the default connector's frequencies.
TargetFacts facts_from_source_connectors(const nlohmann::json& body, TargetFacts base);

// From a GET .../sobjects/Account/describe answer. Pure, for tests.
TargetFacts facts_from_describe(const nlohmann::json& body, TargetFacts base);

// Opens a session on the target and asks. Errors (the target cannot be
// reached, no usable payment method) come back in `error`.
TargetFacts fetch_facts(Target& target, const std::string& fixture, std::string& error);

}  // namespace runner::explore
