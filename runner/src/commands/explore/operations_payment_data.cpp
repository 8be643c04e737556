#include "commands/explore/operation_rows.h"

namespace runner::explore {

namespace {

using nlohmann::json;

const std::vector<std::string>& rows_intent_counts() {
  static const std::vector<std::string> counts = {"Contact", "cpm__Installment__c"};
  return counts;
}

// Spec 4.1, rule 4: the payer is the installment's; only its id and a method.
json rows_body_pay_installment(BuildContext& c) {
  std::vector<std::string> names;
  for (const auto& m : c.facts.methods) names.push_back(m.name);
  return {{"SuccessURL", "https://shop.example/ok"},
          {"FailureURL", "https://shop.example/ko"},
          {"OneTime", {{"Id", "${installment}"}}},
          {"PaymentMethod", {{"Name", names.empty() ? "CreditCard" : c.rng.pick(names)}}}};
}

json rows_body_upsert_account(BuildContext& c) {
  return {{"Name", "Explore Upserted " + c.tag}};
}

}  // namespace

Operation operation_row(std::string name, std::string operation_id, std::string method,
                        std::string path, std::string needs) {
  Operation o;
  o.name = std::move(name);
  o.operation_id = std::move(operation_id);
  o.method = std::move(method);
  o.path = std::move(path);
  o.needs = std::move(needs);
  o.root = o.needs.empty();
  return o;
}

void explore_more_payment_operations(std::vector<Operation>& ops) {
  ops.push_back(
      operation_row("readLegacyPayment", "getPayment", "GET", "/Payment/${legacy}", "legacy"));
  Operation pay =
      operation_row("payInstallment", "postPaymentIntent", "POST", "/PaymentIntent", "installment");
  pay.body = rows_body_pay_installment;
  pay.counts = rows_intent_counts();
  ops.push_back(std::move(pay));
}

void explore_more_data_operations(std::vector<Operation>& ops) {
  const std::string d = "/services/data/v{api}";
  ops.push_back(operation_row("listDataVersions", "getDataVersions", "GET", "/services/data", ""));
  ops.push_back(operation_row("listDataResources", "getDataResources", "GET", d, ""));
  ops.push_back(operation_row("accountInfo", "getSObjectInfo", "GET", d + "/sobjects/Account", ""));
  // The org's today from its clock: a window the replication lists accept
  // (the deleted list reaches back 15 days).
  for (const bool deleted : {false, true}) {
    Operation o = operation_row(deleted ? "accountsDeleted" : "accountsUpdated",
                                deleted ? "getSObjectDeleted" : "getSObjectUpdated", "GET",
                                d + "/sobjects/Account/" + (deleted ? "deleted" : "updated"), "");
    o.query = {{"start", "${today-1d}T00:00:00Z"}, {"end", "${today+1d}T00:00:00Z"}};
    ops.push_back(std::move(o));
  }
  Operation tooling =
      operation_row("toolingQuery", "getToolingQuery", "GET", d + "/tooling/query", "");
  tooling.query = {{"q", "SELECT Id, Status, SandboxName FROM SandboxProcess"}};
  ops.push_back(std::move(tooling));
  Operation all =
      operation_row("queryAllAccount", "getDataQueryAll", "GET", d + "/queryAll", "account");
  all.query = {{"q", "SELECT Id, Name, IsDeleted FROM Account WHERE Id = '${account}'"}};
  ops.push_back(std::move(all));
  // `{external_id}`: the first external id field describe lists on Account.
  Operation upsert = operation_row("upsertAccount", "upsertSObject", "PATCH",
                                   d + "/sobjects/Account/{external_id}/explore-{tag}", "");
  upsert.body = rows_body_upsert_account;
  upsert.counts = {"Account"};
  ops.push_back(std::move(upsert));
}

}  // namespace runner::explore
