// GUIDs are read in any case (RFC 4122 section 3: "case insensitive on
// input"): QA found GET /Installment/{GUID in upper case} answered 404. Every
// GUID lookup, in a path or a body, finds the record whatever the case.
#include <catch2/catch.hpp>

#include "testing/intent_body.h"
#include "testing/test_org.h"
#include "util/ascii.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

std::string upper(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

// Every other letter upper case: neither the stored form nor its upper case.
std::string mixed(const std::string& s) {
  std::string out = s;
  for (size_t i = 0; i < out.size(); i += 2)
    if (out[i] >= 'a' && out[i] <= 'z') out[i] = static_cast<char>(out[i] - 'a' + 'A');
  return out;
}

}  // namespace

TEST_CASE("an installment's GUID is found in any case, in the path and in OneTime.Id",
          "[http][guid_case]") {
  TestOrg t(fixture("default.yaml"));
  auto created = t.post("/PaymentIntent", IntentBody::one_time(sepa_debit()));
  REQUIRE(created.status == 200);
  auto pi = t.get("/PaymentIntent/" + created.json["Id"].get<std::string>());
  const std::string inst_id = pi.json["OneTime"]["Id"];
  const std::string guid = t.get("/Installment/" + inst_id).json["GUID"];
  REQUIRE(guid == ascii_lower(guid));  // handed out lower case
  REQUIRE(upper(guid) != guid);

  for (const std::string& given : {upper(guid), mixed(guid)}) {
    INFO(given);
    auto inst = t.get("/Installment/" + given);
    INFO(inst.body);
    REQUIRE(inst.status == 200);
    CHECK(inst.json["Id"] == inst_id);
    CHECK(inst.json["GUID"] == guid);  // shown as stored
    auto legacy = t.get("/Payment/" + given);
    INFO(legacy.body);
    CHECK(legacy.json["IsSuccess"] == true);
  }

  auto r = t.post("/PaymentIntent", IntentBody::pay_installment(upper(guid), card()));
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK(t.get("/PaymentIntent/" + r.json["Id"].get<std::string>()).json["OneTime"]["Id"] ==
        inst_id);
}

TEST_CASE("a recurring record's GUID is found in any case, in the path and in Recurring.Id",
          "[http][guid_case][recurring]") {
  TestOrg t(fixture("default.yaml"));
  const std::string id =
      t.recurring_id(t.post("/PaymentIntent", IntentBody::recurring(sepa_debit())));
  const std::string guid = t.record(id).guid;
  REQUIRE(upper(guid) != guid);

  auto get = t.get("/Recurring/" + upper(guid));
  INFO(get.body);
  REQUIRE(get.status == 200);
  CHECK(get.json["Id"] == id);

  auto r = t.post("/PaymentIntent",
                  IntentBody::update_recurring(mixed(guid), card("Stripe")).initial_payment(10));
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK(t.record(id).text("cpm__Payment_Method__c") == "CreditCard");
}
