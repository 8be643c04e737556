// The valid bodies' optional members (optional_members.h): values from the
// schema and from the facts, drawn per body, valid against the contract, cut
// by the shrinker; the facts they need read from the configuration answers.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "checker/checker.h"
#include "commands/explore/explore_test_facts.h"
#include "commands/explore/mutations.h"
#include "commands/explore/operations.h"
#include "commands/explore/optional_members.h"
#include "commands/explore/schema_facts.h"
#include "commands/explore/sequences.h"
#include "commands/explore/shrink.h"
#include "commands/explore/sweep.h"

using namespace runner;
using namespace runner::explore;
using nlohmann::json;

namespace {

// The request `op` makes, its bodies' optional members per `fill`.
RequestSpec opt_request(const std::string& op, Fill fill, uint64_t index,
                        std::vector<std::string>* added = nullptr) {
  const TargetFacts facts = default_org_facts();
  Rng rng = Rng::for_case(3, index);
  BuildContext ctx{facts, rng, "3-" + std::to_string(index)};
  ctx.fill = fill;
  RequestSpec r = build_request(*find_operation(op), ctx);
  if (added) *added = ctx.added;
  return r;
}

// The body with the case's `${...}` replaced by ids of the right shape.
json opt_resolved(json body) {
  std::string text = body.dump();
  for (const auto& [var, id] :
       std::vector<std::pair<std::string, std::string>>{{"${contact}", "0035J0000000002QAA"},
                                                        {"${account}", "0015J0000000001QAA"},
                                                        {"${installment}", "a0F5J0000000003UAA"},
                                                        {"${recurring}", "a0R5J0000000004UAA"},
                                                        {"${legacy}", "a0F5J0000000003UAA"}})
    for (size_t at = text.find(var); at != std::string::npos; at = text.find(var))
      text.replace(at, var.size(), id);
  return json::parse(text);
}

}  // namespace

TEST_CASE("explore: the schema gives a value where it can, null where a fact must", "[explore]") {
  Rng rng(1);
  const std::string pi = "payment_intent_request";
  CHECK(schema_value(pi, "/WebhookURL", rng, "1-2") == "https://shop.example/WebhookURL/1-2");
  CHECK(schema_value(pi, "/Recurring/StartDate", rng, "t") == "2027-03-01");
  CHECK(schema_value(pi, "/Payer/AllowDeduplication", rng, "t").is_boolean());
  CHECK(schema_value(pi, "/Origin", rng, "1-2") == "Explore Origin 1-2");
  const json amount = schema_value(pi, "/OneTime/Amount", rng, "t");
  REQUIRE(amount.is_number());
  CHECK(amount.get<double>() > 0);
  const json line = schema_value("bulk_ingest_job_request", "/lineEnding", rng, "t");
  CHECK((line == "LF" || line == "CRLF"));
  CHECK(schema_value("bulk_ingest_job_request", "/contentType", rng, "t") == "CSV");
  CHECK(schema_value(pi, "/CrmFields", rng, "t") == json::object());
  // A pattern alone (a currency code, a record id): the target's value, not the schema's.
  CHECK(schema_value(pi, "/OneTime/CurrencyISOCode", rng, "t").is_null());
  CHECK(schema_value(pi, "/CampaignId", rng, "t").is_null());
}

TEST_CASE("explore: every optional member of a body, and each valid by its schema", "[explore]") {
  const auto checker = contracts::Checker::embedded(contracts::Profile::kStrict);
  for (const auto& op : operations()) {
    if (!op.body) continue;
    INFO(op.name);
    for (uint64_t index = 0; index < 6; ++index) {
      std::vector<std::string> added;
      const RequestSpec r = opt_request(op.name, Fill::kAll, index, &added);
      const std::string schema = request_schema_name(r.method, r.path);
      if (schema.empty()) continue;
      INFO(r.json.dump());
      const auto v = checker->validate(schema, opt_resolved(r.json));
      CHECK(v.ok());
      for (const auto& p : added) CHECK(r.json.contains(json::json_pointer(p)));
    }
  }
  std::vector<std::string> added;
  const RequestSpec one_time = opt_request("createOneTime", Fill::kAll, 0, &added);
  for (const char* p : {"/WebhookURL", "/CampaignId", "/Settings/ProcessingType",
                        "/PaymentMethod/Target", "/OneTime/CurrencyISOCode", "/Payer/Account",
                        "/Payer/AccountRecordTypeName", "/PackageActions", "/CrmFields"}) {
    INFO(p);
    CHECK(std::find(added.begin(), added.end(), p) != added.end());
  }
  CHECK(one_time.json["Payer"]["Account"]["RecordTypeName"] ==
        one_time.json["Payer"]["AccountRecordTypeName"]);
  CHECK(one_time.json["OneTime"]["CurrencyISOCode"] == "EUR");
  CHECK(opt_request("createOneTime", Fill::kNone, 0, &added).json.size() == 6);
  CHECK(added.empty());
}

TEST_CASE("explore: a package action's texts are short whatever the case's tag", "[explore]") {
  // GET /PackageActions gives no lengths; a declaration's PostalCode holds 20
  // (found by seed 2 at 3,000 cases: a retried case's long tag made 21).
  const TargetFacts facts = default_org_facts();
  Rng rng(7);
  BuildContext ctx{facts, rng, "42953018-1929"};
  ctx.fill = Fill::kAll;
  for (int i = 0; i < 10; ++i) {
    const RequestSpec r = build_request(*find_operation("createLegacyRecurring"), ctx);
    REQUIRE(r.json.contains("PackageActions"));
    for (const auto& p : value_pointers(r.json["PackageActions"])) {
      const json& v = r.json["PackageActions"].at(json::json_pointer(p));
      const bool email = v.is_string() && v.get<std::string>().find('@') != std::string::npos;
      if (v.is_string() && !email) CHECK(v.get<std::string>().size() <= 20);
    }
  }
}

TEST_CASE("explore: a body's optional members are drawn: none, some or all", "[explore]") {
  size_t none = 0, some = 0, all = 0;
  std::vector<std::string> every;
  opt_request("createRecurring", Fill::kAll, 0, &every);
  for (uint64_t index = 0; index < 80; ++index) {
    std::vector<std::string> added;
    opt_request("createRecurring", Fill::kDrawn, index, &added);
    none += added.empty();
    all += added.size() >= every.size();
    some += !added.empty() && added.size() < every.size();
  }
  CHECK(none > 5);
  CHECK(some > 20);
  CHECK(all > 5);
}

TEST_CASE("explore: an upsert job names its external id field", "[explore]") {
  const RequestSpec job = opt_request("createIngestJob", Fill::kAll, 0);
  CHECK(job.json["externalIdFieldName"] == "Legacy_Account_Id__c");
  CHECK(job.json["operation"] == "upsert");
  TargetFacts none = default_org_facts();
  none.account_external_id.clear();
  Rng rng(1);
  BuildContext ctx{none, rng, "t"};
  ctx.fill = Fill::kAll;
  const RequestSpec insert = build_request(*find_operation("createIngestJob"), ctx);
  CHECK_FALSE(insert.json.contains("externalIdFieldName"));
  CHECK(insert.json["operation"] == "insert");
}

TEST_CASE("explore: the shrinker cuts a valid request's optional members only", "[explore]") {
  auto c = valid_case_to(default_org_facts(), 1, 4, "createOneTime", Fill::kAll);
  REQUIRE(c);
  const std::string step = c->scenario.steps[0].name;
  REQUIRE(c->meta[0].optional.size() > 5);
  // The failure needs the WebhookURL: every other optional member goes, the
  // required ones stay.
  auto fails = [&](const Case& k) {
    return std::get<RequestStep>(k.scenario.steps[0].body).request.json.contains("WebhookURL");
  };
  ShrinkStats stats;
  const Case out = shrink_case(*c, step, fails, 200, stats, /*cut_members=*/false);
  const json& body = std::get<RequestStep>(out.scenario.steps[0].body).request.json;
  CHECK(body.contains("WebhookURL"));
  for (const char* kept : {"SuccessURL", "FailureURL", "Payer", "OneTime", "PaymentMethod"})
    CHECK(body.contains(kept));
  CHECK_FALSE(body.contains("Settings"));
  CHECK_FALSE(body.contains("CampaignId"));
  CHECK_FALSE(body["Payer"].contains("Account"));
  CHECK(out.meta[0].optional == std::vector<std::string>{"/WebhookURL"});
}

TEST_CASE("explore: the sweep leaves a part of the default budget to chance", "[explore]") {
  const auto targets = sweep_targets(default_org_facts(), 1);
  CHECK(targets.size() < 160);
  // Each route with a JSON body is sent as text/plain once.
  std::set<std::string> plain;
  for (size_t i = 0; i < targets.size(); ++i) {
    const auto c = sweep_case(default_org_facts(), 1, i);
    if (c && c->family == "wrong_content_type") plain.insert(c->operation());
  }
  for (const char* op : {"createOneTime", "createLegacyPayment", "createAccount"})
    CHECK(plain.count(op) == 1);
  // The valid parts run a few to a case.
  size_t valid = 0;
  for (const auto& t : targets) valid += !t.near;
  CHECK(valid < operations().size() / 2);
}

TEST_CASE("explore: the facts the optional members need, from the configuration answers",
          "[explore]") {
  const json methods = json::parse(R"({"PaymentMethods": [{"Name": "CreditCard", "Processors": [
      {"Name": "Stripe", "IsDefault": true, "Targets": [{"Name": "Online", "IsDefault": true},
       {"Name": "Telephone"}], "Parameters": [{"Name": "description", "DataType": "String",
       "Required": false}]}]}, {"Name": "Bacs", "Processors": [{"Name": "Access PaySuite",
       "IsDefault": true, "RequiredPackageActions": ["cpm_GiftAid.Declaration"]}]}]})");
  const TargetFacts m = facts_from_payment_methods(methods);
  // A processor that requires a package action is left out, as one with required parameters.
  REQUIRE(m.methods.size() == 1);
  CHECK(m.methods[0].targets == std::vector<std::string>{"Online", "Telephone"});
  REQUIRE(m.methods[0].parameters.size() == 1);
  CHECK(m.methods[0].parameters[0].type == "String");
  const json spec = json::parse(R"({"Packages": [{"Name": "cpm_Receipts", "Actions": [
      {"Name": "SendReceipt", "Parameters": [{"Name": "Email", "DataType": "Email",
       "Required": true}, {"Name": "Language", "DataType": "Picklist", "Values": ["en"]}]}]}]})");
  const json package = json::parse(R"({"PackageActions": [{"PackageName": "cpm_Receipts",
      "actions": [{"name": "SendReceipt", "Parameters": [{"name": "Email", "dataType": "Email",
       "required": true}]}]}]})");
  for (const json& body : {spec, package}) {
    const TargetFacts p = facts_from_package_actions(body, {});
    REQUIRE(p.package_actions.size() == 1);
    CHECK(p.package_actions[0].package == "cpm_Receipts");
    CHECK(p.package_actions[0].action == "SendReceipt");
    REQUIRE_FALSE(p.package_actions[0].parameters.empty());
    CHECK(p.package_actions[0].parameters[0].required);
  }
  const json connectors = json::parse(R"({"SourceConnectors": [{"Name": "cpm_Native",
      "IsDefault": true, "Frequencies": ["Monthly"], "RecurringObject": "npe03__Recurring__c",
      "Parameters": [{"Name": "Campaign", "DataType": "String", "Required": true}]}]})");
  const TargetFacts c = facts_from_source_connectors(connectors, {});
  CHECK(c.connector == "cpm_Native");
  CHECK(c.recurring_object == "npe03__Recurring__c");
  REQUIRE(c.connector_parameters.size() == 1);
  const auto records = [](json r) { return json{{"records", std::move(r)}}; };
  const TargetFacts q = facts_from_queries(
      records({{{"DefaultCurrencyIsoCode", "GBP"}}}), records({{{"Id", "7017Q00000Sprg1QAB"}}}),
      records(
          {{{"DeveloperName", "Business_Account"}, {"SobjectType", "Account"}},
           {{"DeveloperName", "PersonAccount"}, {"SobjectType", "Account"}, {"IsPersonType", true}},
           {{"DeveloperName", "Donor"}, {"SobjectType", "Contact"}}}),
      {});
  CHECK(q.currency == "GBP");
  CHECK(q.campaign_id == "7017Q00000Sprg1QAB");
  CHECK(q.account_record_types == std::vector<std::string>{"Business_Account"});
  CHECK(q.contact_record_types == std::vector<std::string>{"Donor"});
  const json describe = json::parse(R"({"fields": [
      {"name": "Appeal_Code__c", "type": "string", "length": 20, "createable": true,
       "updateable": true, "calculated": false},
      {"name": "cpm__Status__c", "type": "picklist", "createable": true, "updateable": true},
      {"name": "Name", "type": "string", "length": 80, "createable": false, "updateable": false}]})");
  const auto fields = text_fields_from_describe(describe);
  REQUIRE(fields.size() == 1);
  CHECK(fields[0].name == "Appeal_Code__c");
  CHECK(fields[0].length == 20);
}
