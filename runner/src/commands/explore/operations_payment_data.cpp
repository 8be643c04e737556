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

MethodFact rows_pick_method(BuildContext& c, bool recurring) {
  std::vector<MethodFact> fit;
  for (const auto& m : c.facts.methods)
    if (!recurring || m.recurring) fit.push_back(m);
  if (fit.empty()) return MethodFact{"CreditCard", "Stripe", true, true};
  return c.rng.pick(fit);
}

int rows_amount(BuildContext& c) {
  static const std::vector<int> amounts = {1, 5, 25, 100, 250};
  return c.rng.pick(amounts);
}

json rows_urls() {
  return {{"SuccessURL", "https://shop.example/ok"}, {"FailureURL", "https://shop.example/ko"}};
}

// A one-time payment of a contact and an account that exist (spec 2.2: each by Id).
json rows_body_known_payer(BuildContext& c) {
  json b = rows_urls();
  b["Payer"] = {{"Contact", {{"Id", "${contact}"}}}, {"Account", {{"Id", "${account}"}}}};
  b["OneTime"] = {{"Amount", rows_amount(c)}};
  b["PaymentMethod"] = {{"Name", rows_pick_method(c, false).name}};
  return b;
}

// The older interface's recurring payment (spec 4.7: Recurring replaces Payment).
json rows_body_legacy_recurring(BuildContext& c) {
  json b = rows_urls();
  b["Payer"] = {{"Contact",
                 {{"FirstName", "Legacy"},
                  {"LastName", "Recurring " + c.tag},
                  {"Email", "legacy-recurring-" + c.tag + "@example.org"}}}};
  b["Recurring"] = {{"Amount", rows_amount(c)},
                    {"Frequency", c.rng.pick(c.facts.frequencies)},
                    {"StartDate", "2027-03-01"}};
  b["PaymentMethod"] = {{"Name", rows_pick_method(c, true).name}};
  return b;
}

// The older interface's payer by ids (ContactId, AccountId: spec 4.7).
json rows_body_legacy_known_payer(BuildContext& c) {
  json b = rows_urls();
  b["Payer"] = {{"ContactId", "${contact}"}, {"AccountId", "${account}"}};
  b["Payment"] = {{"Amount", rows_amount(c)}};
  b["PaymentMethod"] = {{"Name", rows_pick_method(c, false).name}};
  return b;
}

// Payment.InstallmentId pays an existing installment; no Payer (spec 4.7).
json rows_body_legacy_pay(BuildContext& c) {
  json b = rows_urls();
  b["Payment"] = {{"InstallmentId", "${legacy}"}};
  b["PaymentMethod"] = {{"Name", rows_pick_method(c, false).name}};
  return b;
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
  // Writes that make an intent's records. A known payer is the account and
  // contact a composite tree made.
  struct IntentWrite {
    const char* name;
    const char* operation_id;
    const char* path;
    const char* needs;
    nlohmann::json (*body)(BuildContext&);
  };
  static const IntentWrite kWrites[] = {
      {"payInstallment", "postPaymentIntent", "/PaymentIntent", "installment",
       rows_body_pay_installment},
      {"createOneTimeKnownPayer", "postPaymentIntent", "/PaymentIntent", "account",
       rows_body_known_payer},
      {"createLegacyRecurring", "postPayment", "/Payment", "", rows_body_legacy_recurring},
      {"createLegacyKnownPayer", "postPayment", "/Payment", "account",
       rows_body_legacy_known_payer},
      {"payLegacyInstallment", "postPayment", "/Payment", "legacy", rows_body_legacy_pay},
  };
  for (const IntentWrite& w : kWrites) {
    Operation o = operation_row(w.name, w.operation_id, "POST", w.path, w.needs);
    o.body = w.body;
    o.counts = rows_intent_counts();
    ops.push_back(std::move(o));
  }
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
