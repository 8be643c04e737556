#pragma once
// Bodies and record look-ups the recurring HTTP tests share.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "domain/fields.h"
#include "test_support.h"

namespace fake_org::recurring_test {

using nlohmann::json;
using testing::Response;
using testing::TestOrg;

inline const json kAda = json::parse(
    R"({"Contact":{"CrmFields":{"FirstName":"Ada","LastName":"Lovelace","Email":"ada@example.org"}}})");
inline const json kSepaParams =
    json::parse(R"({"IBAN":"DE89370400440532013000","AccountHolderName":"Ada Lovelace"})");
inline const json kBacsParams = json::parse(
    R"({"SortCode":"60-16-13","AccountNumber":"31926819","AccountHolderName":"Ada Lovelace"})");

inline json recurring(json method, json one_time = nullptr, json payer = kAda) {
  json b = {{"SuccessURL", "https://shop.example/thanks"},
            {"FailureURL", "https://shop.example/sorry"},
            {"Payer", payer},
            {"Recurring", {{"Amount", 10}, {"Frequency", "Monthly"}, {"StartDate", "2027-02-01"}}},
            {"PaymentMethod", method}};
  if (!one_time.is_null()) b["OneTime"] = one_time;
  return b;
}

inline json update(const std::string& id, json method, json one_time = nullptr) {
  json b = {{"SuccessURL", "https://shop.example/thanks"},
            {"FailureURL", "https://shop.example/sorry"},
            {"Recurring", {{"Id", id}}},
            {"PaymentMethod", method}};
  if (!one_time.is_null()) b["OneTime"] = one_time;
  return b;
}

inline const json kCard = {{"Name", "CreditCard"}};
inline const json kCardStripe = {{"Name", "CreditCard"}, {"Processor", "Stripe"}};
inline const json kSepa = {{"Name", "SEPA Direct Debit"}, {"Parameters", kSepaParams}};
inline const json kSepaGc = {
    {"Name", "SEPA Direct Debit"}, {"Processor", "GoCardless"}, {"Parameters", kSepaParams}};
inline const json kBacs = {{"Name", "Bacs Direct Debit"}, {"Parameters", kBacsParams}};
inline const json kFirst = {{"Amount", 10}};

inline std::string code_of(const Response& r) {
  return r.json["Errors"][0]["error_code"].get<std::string>();
}
inline std::string message_of(const Response& r) {
  return r.json["Errors"][0]["error_message"].get<std::string>();
}

inline Record record(TestOrg& t, const std::string& id) {
  auto r = t.org().records().read([&](const RecordStore& s) { return s.get(id); });
  REQUIRE(r);
  return *r;
}
inline std::vector<Record> all(TestOrg& t, const std::string& object) {
  return t.org().records().read([&](const RecordStore& s) {
    std::vector<Record> out;
    for (const auto& id : s.ids_of(object)) out.push_back(*s.get(id));
    return out;
  });
}

// The recurring record id of a successful intent.
inline std::string recurring_id(TestOrg& t, const Response& created) {
  REQUIRE(created.status == 200);
  auto pi = t.get("/PaymentIntent/" + created.json["Id"].get<std::string>());
  REQUIRE(pi.status == 200);
  return pi.json["Recurring"]["Id"];
}

}  // namespace fake_org::recurring_test
