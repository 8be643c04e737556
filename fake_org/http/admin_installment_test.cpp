// An installment created through the admin API with only an amount reads like
// the org's own: the admin route fills what the org always sets (initial
// status, open amount, currency; decisions 49), and every view omits empty
// fields (spec 2.10/2.11, decisions 39). TestOrg checks each body against the
// strict contracts.
#include <catch2/catch.hpp>

#include "domain/core/events.h"
#include "domain/core/fields.h"
#include "domain/payments/views.h"
#include "domain/store/record_store.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

void no_empty_strings(const json& j, const std::string& where) {
  if (j.is_string()) {
    INFO(where);
    CHECK_FALSE(j.get<std::string>().empty());
  }
  if (j.is_object())
    for (const auto& [k, v] : j.items()) no_empty_strings(v, where + "." + k);
  if (j.is_array())
    for (const auto& v : j) no_empty_strings(v, where + "[]");
}

}  // namespace

TEST_CASE("an admin-created installment gets the org's defaults and reads under the contract",
          "[http][admin][records]") {
  TestOrg t(fixture("default.yaml"));
  auto created = t.post("/__admin/records/cpm__Installment__c", {{"cpm__Amount__c", 5}}, false);
  INFO(created.body);
  REQUIRE(created.status == 201);
  CHECK(created.json["cpm__Status__c"] == "Outstanding");  // org.installment_initial_status
  CHECK(created.json["cpm__Amount_Open__c"] == 5);
  CHECK(created.json["CurrencyIsoCode"] == "EUR");  // org.default_currency
  const std::string id = created.json["Id"];

  auto inst = t.get("/Installment/" + id);
  INFO(inst.body);
  REQUIRE(inst.status == 200);
  CHECK(inst.json["Status"] == "Outstanding");
  CHECK(inst.json["AmountOpen"] == 5);
  CHECK(inst.json["Amount"] == 5);
  CHECK(inst.json["CurrencyISOCode"] == "EUR");
  no_empty_strings(inst.json, "Installment");

  auto payment = t.get("/Payment/" + id);
  INFO(payment.body);
  REQUIRE(payment.status == 200);
  CHECK(payment.json["Payment"]["Status"] == "Outstanding");
  CHECK(payment.json["Payment"]["CurrencyISOCode"] == "EUR");
  no_empty_strings(payment.json, "Payment");

  // The webhook view and the reference other bodies embed, checked as sent.
  t.org().records().read([&](const RecordStore& s) {
    auto r = s.get(id);
    REQUIRE(r);
    json hook = installment_webhook_view(t.org(), s, *r);
    no_empty_strings(hook, "webhook");
    CHECK(hook["Status"] == "Outstanding");
    t.embedded().contract_monitor()->check_webhook(
        {{"type", event_type::kInstallmentStatusChange}, {"data", hook}});
    CHECK(record_ref(t.org(), *r)["Status"] == "Outstanding");
    return 0;
  });

  // Given explicitly, the body's values stand; a collected one owes nothing.
  auto collected = t.post(
      "/__admin/records/cpm__Installment__c",
      {{"cpm__Amount__c", 7}, {"cpm__Status__c", "Collected"}, {"CurrencyIsoCode", "GBP"}}, false);
  REQUIRE(collected.status == 201);
  CHECK(collected.json["cpm__Amount_Open__c"] == 0);
  CHECK(collected.json["CurrencyIsoCode"] == "GBP");
  auto read = t.get("/Installment/" + collected.json["Id"].get<std::string>());
  CHECK(read.json["Status"] == "Collected");
  CHECK(read.json["AmountOpen"] == 0);
}

TEST_CASE("installment views omit empty fields instead of showing \"\"", "[views]") {
  TestOrg t(fixture("default.yaml"));
  Record r;
  r.object = objects::kInstallment;
  r.id = "a0B5J000000ZZZZUAA";
  r.fields[fields::installment::kAmount] = 5;
  t.org().records().read([&](const RecordStore& s) {
    json view = installment_view(t.org(), s, r);
    CHECK_FALSE(view.contains("Status"));
    CHECK_FALSE(view.contains("CurrencyISOCode"));
    CHECK_FALSE(installment_webhook_view(t.org(), s, r).contains("Status"));
    CHECK_FALSE(record_ref(t.org(), r).contains("Status"));
    return 0;
  });
}
