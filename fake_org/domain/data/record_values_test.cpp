#include "record_values.h"

#include <catch2/catch.hpp>

#include "testing/domain_org.h"

using namespace fake_org;
using nlohmann::json;

namespace {

struct Checked {
  data::DataErrors errors;
  json out;
};

Checked check(const json& body, WriteKind kind = WriteKind::kCreate) {
  static const OrgConfig config = testing::default_config();
  Checked c;
  auto exists = [](const std::string& id) { return id == testing::kGreenfield; };
  c.errors = check_record_body(config, *config.object("Contact"), body, kind, exists, c.out);
  return c;
}

std::string first_code(const json& body, WriteKind kind = WriteKind::kCreate) {
  auto c = check(body, kind);
  return c.errors.empty() ? "" : c.errors.front().code;
}

}  // namespace

TEST_CASE("record values: a body's fields by the catalogue, with the platform's codes",
          "[domain][data]") {
  auto ok = check({{"lastname", "Doe"},
                   {"AccountId", testing::kGreenfield.substr(0, 15)},
                   {"DoNotCall", true},
                   {"attributes", {{"type", "Contact"}}}});
  CHECK(ok.errors.empty());
  CHECK(ok.out ==
        json{{"LastName", "Doe"}, {"AccountId", testing::kGreenfield}, {"DoNotCall", true}});

  CHECK(first_code({{"LastName", "X"}, {"Nope", 1}}) == "INVALID_FIELD");
  CHECK(first_code({{"FirstName", "X"}}) == "REQUIRED_FIELD_MISSING");
  CHECK(first_code({{"FirstName", "X"}}, WriteKind::kUpdate).empty());
  CHECK(first_code({{"LastName", nullptr}}, WriteKind::kUpdate) == "REQUIRED_FIELD_MISSING");
  CHECK(first_code({{"LastName", std::string(81, 'x')}}) == "STRING_TOO_LONG");
  CHECK(first_code({{"LastName", "X"}, {"LeadSource", "Fax"}}) ==
        "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST");
  CHECK(first_code({{"LastName", "X"}, {"DoNotCall", "true"}}) ==
        "INVALID_TYPE_ON_FIELD_IN_RECORD");
  CHECK(first_code({{"LastName", "X"}, {"Birthdate", "2027-02-30"}}) ==
        "INVALID_TYPE_ON_FIELD_IN_RECORD");
  CHECK(first_code({{"LastName", json::array()}}) == "JSON_PARSER_ERROR");
  CHECK(first_code(json::array()) == "JSON_PARSER_ERROR");
  CHECK(first_code({{"LastName", "X"}, {"AccountId", "001000000000009"}}) ==
        "INVALID_CROSS_REFERENCE_KEY");
  CHECK(first_code({{"LastName", "X"}, {"AccountId", "x"}}) == "MALFORMED_ID");
  CHECK(first_code({{"LastName", "X"}, {"SystemModstamp", "x"}}) ==
        "INVALID_FIELD_FOR_INSERT_UPDATE");
  CHECK(first_code({{"LastName", "X"}, {"IsPersonAccount", false}}) ==
        "INVALID_FIELD_FOR_INSERT_UPDATE");
}

TEST_CASE("record values: one value's check says what it must be", "[domain][data]") {
  FieldDef amount;
  amount.name = "Amount__c";
  amount.type = FieldType::kCurrency;
  amount.scale = 2;
  OrgConfig config;
  auto c = check_field_value(config, amount, "12.345", true, nullptr);
  CHECK(c.code == "INVALID_TYPE_ON_FIELD_IN_RECORD");
  CHECK(c.must == "a number with at most 2 decimals");
  CHECK(check_field_value(config, amount, "12.50", true, nullptr).value == 12.5);
  CHECK(check_field_value(config, amount, "12", true, nullptr).value == 12);
  CHECK(check_field_value(config, amount, std::string(30, '9'), true, nullptr).ok());
}
