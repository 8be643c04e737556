#include "commands/explore/operations.h"

#include "commands/explore/operation_rows.h"
#include "commands/explore/optional_members.h"
#include "commands/explore/schema_facts.h"

namespace runner::explore {

namespace {

using nlohmann::json;

MethodFact explore_pick_method(BuildContext& c, bool recurring) {
  std::vector<MethodFact> fit;
  for (const auto& m : c.facts.methods)
    if (!recurring || m.recurring) fit.push_back(m);
  if (fit.empty()) return MethodFact{"CreditCard", "Stripe", true, true};
  return c.rng.pick(fit);
}

json explore_payer(BuildContext& c) {
  return {{"Contact",
           {{"CrmFields",
             {{"FirstName", "Ex"},
              {"LastName", "Plore " + c.tag},
              {"Email", "explore-" + c.tag + "@example.org"}}}}}};
}

int explore_amount(BuildContext& c) {
  static const std::vector<int> amounts = {1, 5, 25, 100, 250};
  return c.rng.pick(amounts);
}

json explore_body_one_time(BuildContext& c) {
  const MethodFact m = explore_pick_method(c, false);
  return {{"SuccessURL", "https://shop.example/ok"},    {"FailureURL", "https://shop.example/ko"},
          {"IdempotencyKey", "explore-" + c.tag},       {"Payer", explore_payer(c)},
          {"OneTime", {{"Amount", explore_amount(c)}}}, {"PaymentMethod", {{"Name", m.name}}}};
}

json explore_body_recurring(BuildContext& c) {
  const MethodFact m = explore_pick_method(c, true);
  const int amount = explore_amount(c);
  json b = {{"SuccessURL", "https://shop.example/ok"},
            {"FailureURL", "https://shop.example/ko"},
            {"Payer", explore_payer(c)},
            {"Recurring",
             {{"Amount", amount},
              {"Frequency", c.rng.pick(c.facts.frequencies)},
              {"StartDate", "2027-03-01"}}},
            {"PaymentMethod", {{"Name", m.name}}}};
  if (m.initial_required) b["OneTime"] = {{"Amount", amount}};
  return b;
}

json explore_body_update_recurring(BuildContext& c) {
  const MethodFact m = explore_pick_method(c, true);
  json b = {{"SuccessURL", "https://shop.example/ok"},
            {"FailureURL", "https://shop.example/ko"},
            {"Recurring", {{"Id", "${recurring}"}}},
            {"PaymentMethod", {{"Name", m.name}, {"Processor", m.processor}}}};
  if (m.initial_required) b["OneTime"] = {{"Amount", explore_amount(c)}};
  return b;
}

// Name, and up to two of the catalogue's other text fields, each within its length.
json explore_body_account(BuildContext& c) {
  json b = {{"Name", "Explore Household " + c.tag}};
  const size_t n = c.facts.account_fields.empty() ? 0 : c.rng.below(3);
  for (size_t i = 0; i < n; ++i) {
    const FieldFact& f = c.rng.pick(c.facts.account_fields);
    b[f.name] = ("Explore " + f.name + " " + c.tag).substr(0, f.length);
  }
  return b;
}
json explore_body_account_update(BuildContext& c) {
  return {{"Name", "Explore Renamed " + c.tag}};
}
json explore_body_contact(BuildContext& c) {
  return {{"LastName", "Explore " + c.tag}, {"Email", "contact-" + c.tag + "@example.org"}};
}

// The older interface's one-time payment (spec 4.7): fields directly in Contact.
json explore_body_legacy_payment(BuildContext& c) {
  const MethodFact m = explore_pick_method(c, false);
  return {{"SuccessURL", "https://shop.example/ok"},
          {"FailureURL", "https://shop.example/ko"},
          {"Payer",
           {{"Contact",
             {{"FirstName", "Legacy"},
              {"LastName", "Explore " + c.tag},
              {"Email", "legacy-" + c.tag + "@example.org"}}}}},
          {"Payment", {{"Amount", explore_amount(c)}}},
          {"PaymentMethod", {{"Name", m.name}}}};
}

// A value of the request schema's enum at `pointer` (the contract's list, not ours).
json explore_schema_enum(BuildContext& c, const std::string& schema, const std::string& pointer) {
  const ValueRules rules = value_rules(schema, pointer);
  return rules.enums.empty() ? json() : c.rng.pick(rules.enums);
}

json explore_body_ingest_job(BuildContext& c) {
  const std::string s = "bulk_ingest_job_request";
  return {{"object", "Account"},
          {"operation", "insert"},
          {"contentType", "CSV"},
          {"columnDelimiter", explore_schema_enum(c, s, "/columnDelimiter")},
          {"lineEnding", explore_schema_enum(c, s, "/lineEnding")}};
}

json explore_body_query_job(BuildContext& c) {
  const std::string s = "bulk_query_job_request";
  return {{"operation", explore_schema_enum(c, s, "/operation")},
          {"query", "SELECT Id, Name FROM Account"},
          {"contentType", "CSV"},
          {"columnDelimiter", explore_schema_enum(c, s, "/columnDelimiter")},
          {"lineEnding", explore_schema_enum(c, s, "/lineEnding")}};
}

// What the org has configured (spec 4.5, 4.6).
void explore_configuration_operations(std::vector<Operation>& ops) {
  ops.push_back({"listPaymentMethods",
                 "getPaymentMethods",
                 "GET",
                 "/PaymentMethods",
                 "",
                 nullptr,
                 {},
                 {},
                 true});
  ops.push_back({"listSourceConnectors",
                 "getSourceConnectors",
                 "GET",
                 "/SourceConnector",
                 "",
                 nullptr,
                 {},
                 {},
                 true});
  ops.push_back({"listPackageActions",
                 "getPackageActions",
                 "GET",
                 "/PackageActions",
                 "",
                 nullptr,
                 {},
                 {},
                 true});
}

// The payment intents and the records they make.
void explore_payment_operations(std::vector<Operation>& ops) {
  const std::vector<std::string> intent_counts = {"Contact", "cpm__Installment__c"};
  ops.push_back({"createOneTime",
                 "postPaymentIntent",
                 "POST",
                 "/PaymentIntent",
                 "",
                 explore_body_one_time,
                 {},
                 intent_counts,
                 true});
  ops.push_back({"createRecurring",
                 "postPaymentIntent",
                 "POST",
                 "/PaymentIntent",
                 "",
                 explore_body_recurring,
                 {},
                 intent_counts,
                 true});
  ops.push_back({"readIntent",
                 "getPaymentIntent",
                 "GET",
                 "/PaymentIntent/${pi}",
                 "pi",
                 nullptr,
                 {},
                 {},
                 false});
  ops.push_back({"readInstallment",
                 "getInstallment",
                 "GET",
                 "/Installment/${installment}",
                 "installment",
                 nullptr,
                 {},
                 {},
                 false});
  ops.push_back({"readRecurring",
                 "getRecurring",
                 "GET",
                 "/Recurring/${recurring}",
                 "recurring",
                 nullptr,
                 {},
                 {},
                 false});
  ops.push_back({"updateRecurring",
                 "postPaymentIntent",
                 "POST",
                 "/PaymentIntent",
                 "recurring",
                 explore_body_update_recurring,
                 {},
                 intent_counts,
                 false});
}

json explore_body_abort(BuildContext&) {
  return {{"state", "Aborted"}};
}

// Bulk API 2.0: an ingest job made, read and aborted; a query job made and read.
void explore_bulk_operations(std::vector<Operation>& ops) {
  const std::string d = "/services/data/v{api}";
  ops.push_back({"createIngestJob",
                 "postIngestJob",
                 "POST",
                 d + "/jobs/ingest",
                 "",
                 explore_body_ingest_job,
                 {},
                 {},
                 true});
  ops.push_back({"createQueryJob",
                 "postQueryJob",
                 "POST",
                 d + "/jobs/query",
                 "",
                 explore_body_query_job,
                 {},
                 {},
                 true});
  ops.push_back({"readIngestJob",
                 "getIngestJob",
                 "GET",
                 d + "/jobs/ingest/${ingest_job}",
                 "ingest_job",
                 nullptr,
                 {},
                 {},
                 false});
  ops.push_back({"abortIngestJob",
                 "patchIngestJob",
                 "PATCH",
                 d + "/jobs/ingest/${ingest_job}",
                 "ingest_job",
                 explore_body_abort,
                 {},
                 {},
                 false});
  ops.push_back({"readQueryJob",
                 "getQueryJob",
                 "GET",
                 d + "/jobs/query/${query_job}",
                 "query_job",
                 nullptr,
                 {},
                 {},
                 false});
}

// The REST data API's: an account's life, a contact, describe and limits.
void explore_data_operations(std::vector<Operation>& ops) {
  const std::string d = "/services/data/v{api}";
  ops.push_back({"createAccount",
                 "postSObject",
                 "POST",
                 d + "/sobjects/Account",
                 "",
                 explore_body_account,
                 {},
                 {"Account"},
                 true});
  ops.push_back({"createContact",
                 "postSObject",
                 "POST",
                 d + "/sobjects/Contact",
                 "",
                 explore_body_contact,
                 {},
                 {"Contact"},
                 true});
  ops.push_back({"readAccount",
                 "getSObject",
                 "GET",
                 d + "/sobjects/Account/${account}",
                 "account",
                 nullptr,
                 {},
                 {},
                 false});
  ops.push_back({"updateAccount",
                 "patchSObject",
                 "PATCH",
                 d + "/sobjects/Account/${account}",
                 "account",
                 explore_body_account_update,
                 {},
                 {"Account"},
                 false});
  ops.push_back({"deleteAccount",
                 "deleteSObject",
                 "DELETE",
                 d + "/sobjects/Account/${account}",
                 "account",
                 nullptr,
                 {},
                 {},
                 false});
  ops.push_back({"queryAccount",
                 "getDataQuery",
                 "GET",
                 d + "/query",
                 "account",
                 nullptr,
                 {{"q", "SELECT Id, Name FROM Account WHERE Id = '${account}'"}},
                 {},
                 false});
  ops.push_back({"readContact",
                 "getSObject",
                 "GET",
                 d + "/sobjects/Contact/${contact}",
                 "contact",
                 nullptr,
                 {},
                 {},
                 false});
  ops.push_back({"describeAccount",
                 "getSObjectDescribe",
                 "GET",
                 d + "/sobjects/Account/describe",
                 "",
                 nullptr,
                 {},
                 {},
                 true});
  ops.push_back(
      {"describeGlobal", "getDescribeGlobal", "GET", d + "/sobjects", "", nullptr, {}, {}, true});
  ops.push_back({"limits", "getDataLimits", "GET", d + "/limits", "", nullptr, {}, {}, true});
}

// The older interface (spec 4.7).
void explore_legacy_operations(std::vector<Operation>& ops) {
  const std::vector<std::string> intent_counts = {"Contact", "cpm__Installment__c"};
  ops.push_back({"createLegacyPayment",
                 "postPayment",
                 "POST",
                 "/Payment",
                 "",
                 explore_body_legacy_payment,
                 {},
                 intent_counts,
                 true});
}

std::vector<Operation> explore_make_operations() {
  std::vector<Operation> ops;
  explore_configuration_operations(ops);
  explore_payment_operations(ops);
  explore_legacy_operations(ops);
  explore_data_operations(ops);
  explore_bulk_operations(ops);
  explore_more_payment_operations(ops);
  explore_more_data_operations(ops);
  explore_composite_operations(ops);
  explore_more_bulk_operations(ops);
  explore_identity_operations(ops);
  return ops;
}

std::string explore_replace(std::string s, const std::string& key, const std::string& value) {
  for (size_t at = s.find(key); at != std::string::npos; at = s.find(key, at + value.size()))
    s.replace(at, key.size(), value);
  return s;
}

}  // namespace

const std::vector<Operation>& operations() {
  static const std::vector<Operation> ops = explore_make_operations();
  return ops;
}

const Operation* find_operation(const std::string& name) {
  for (const auto& op : operations())
    if (op.name == name) return &op;
  return nullptr;
}

RequestSpec build_request(const Operation& op, BuildContext& ctx) {
  RequestSpec r;
  r.method = op.method;
  r.path = explore_replace(op.path, "{api}", ctx.facts.api_version);
  r.path = explore_replace(r.path, "{external_id}", ctx.facts.account_external_id);
  r.path = explore_replace(r.path, "{tag}", ctx.tag);
  for (const auto& [k, v] : op.query) r.query.emplace_back(k, v);
  ctx.added.clear();
  if (op.body) {
    r.body = RequestSpec::Body::kJson;
    r.json = op.body(ctx);
    const std::string schema = request_schema_name(r.method, r.path);
    if (!schema.empty()) add_optional_members(op.name, schema, r.json, ctx);
    ctx.sent[op.name] = r.json;
  } else if (op.raw) {
    r.body = RequestSpec::Body::kRaw;
    r.raw = op.raw(ctx);
    r.headers.emplace_back("Content-Type", op.content_type);
  }
  return r;
}

}  // namespace runner::explore
