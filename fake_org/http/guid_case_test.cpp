// GUIDs are read in any case (RFC 4122 section 3: "case insensitive on
// input"): QA found GET /Installment/{GUID in upper case} answered 404. Every
// GUID lookup, in a path or a body, finds the record whatever the case.
#include <catch2/catch.hpp>

#include "recurring_routes_test_support.h"
#include "util/ascii.h"

using namespace fake_org;
using namespace fake_org::testing;
using namespace fake_org::recurring_test;
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

json one_time_sepa() {
  return {{"SuccessURL", "https://shop.example/thanks"},
          {"FailureURL", "https://shop.example/sorry"},
          {"Payer", kAda},
          {"OneTime", {{"Amount", 25}}},
          {"PaymentMethod", kSepa}};
}

}  // namespace

TEST_CASE("an installment's GUID is found in any case, in the path and in OneTime.Id",
          "[http][guid_case]") {
  TestOrg t(fixture("default.yaml"));
  auto created = t.post("/PaymentIntent", one_time_sepa());
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

  json pay = {{"SuccessURL", "https://shop.example/ok"},
              {"FailureURL", "https://shop.example/ko"},
              {"OneTime", {{"Id", upper(guid)}}},
              {"PaymentMethod", {{"Name", "CreditCard"}}}};
  auto r = t.post("/PaymentIntent", pay);
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK(t.get("/PaymentIntent/" + r.json["Id"].get<std::string>()).json["OneTime"]["Id"] ==
        inst_id);
}

TEST_CASE("a recurring record's GUID is found in any case, in the path and in Recurring.Id",
          "[http][guid_case][recurring]") {
  TestOrg t(fixture("default.yaml"));
  const std::string id = recurring_id(t, t.post("/PaymentIntent", recurring(kSepa)));
  const std::string guid = record(t, id).guid;
  REQUIRE(upper(guid) != guid);

  auto get = t.get("/Recurring/" + upper(guid));
  INFO(get.body);
  REQUIRE(get.status == 200);
  CHECK(get.json["Id"] == id);

  auto r = t.post("/PaymentIntent", update(mixed(guid), kCardStripe, kFirst));
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK(record(t, id).text("cpm__Payment_Method__c") == "CreditCard");
}
