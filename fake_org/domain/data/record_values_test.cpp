#include "record_values.h"

#include <catch2/catch.hpp>

#include "domain/core/clock.h"
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
  amount.precision = 18;
  amount.scale = 2;
  OrgConfig config;
  CHECK(check_field_value(config, amount, "12.50", true, nullptr).value == 12.5);
  CHECK(check_field_value(config, amount, "12", true, nullptr).value == 12);
  auto c = check_field_value(config, amount, std::string(17, '9'), true, nullptr);
  CHECK(c.code == "NUMBER_OUTSIDE_VALID_RANGE");
  CHECK(c.must == "a number of at most 16 digits before the decimal point");
  CHECK(check_field_value(config, amount, "1.2.3", true, nullptr).code ==
        "INVALID_TYPE_ON_FIELD_IN_RECORD");
}

namespace {

FieldDef number_field(FieldType type, int precision, int scale) {
  FieldDef f;
  f.name = "N__c";
  f.type = type;
  f.precision = precision;
  f.scale = scale;
  return f;
}

json number_value(const FieldDef& f, const std::string& sent) {
  static const OrgConfig config;
  auto c = check_field_value(config, f, sent, true, nullptr);
  INFO(sent << ": " << c.code << " " << c.must);
  REQUIRE(c.ok());
  return c.value;
}

std::string number_code(const FieldDef& f, const std::string& sent) {
  static const OrgConfig config;
  return check_field_value(config, f, sent, true, nullptr).code;
}

}  // namespace

TEST_CASE("record values: extra decimals round half up to the field's scale", "[domain][data]") {
  const FieldDef currency = number_field(FieldType::kCurrency, 16, 2);
  CHECK(number_value(currency, "59.97000000000001") == 59.97);
  CHECK(number_value(currency, "12.345") == 12.35);
  CHECK(number_value(currency, "12.344999") == 12.34);
  CHECK(number_value(currency, "-12.345") == -12.35);
  CHECK(number_value(currency, "99.995") == 100);
  CHECK(number_value(currency, "0.001") == 0);
  CHECK(number_value(currency, "-0.001") == 0);
  CHECK(number_value(currency, "+7.10") == 7.1);
  const FieldDef percent = number_field(FieldType::kPercent, 5, 2);
  CHECK(number_value(percent, "12.3456") == 12.35);
  const FieldDef count = number_field(FieldType::kNumber, 4, 0);
  CHECK(number_value(count, "2.5") == 3);
  CHECK(number_value(count, "9999.4") == 9999);
  // Rounding may carry a value past its precision.
  CHECK(number_code(count, "9999.5") == "NUMBER_OUTSIDE_VALID_RANGE");
  const FieldDef fraction = number_field(FieldType::kNumber, 3, 3);
  CHECK(number_value(fraction, "0.1234") == 0.123);
}

TEST_CASE("record values: a number beyond its precision, or an int beyond 32 bits, is refused",
          "[domain][data]") {
  const FieldDef currency = number_field(FieldType::kCurrency, 16, 2);
  CHECK(number_value(currency, "99999999999999.99") == 99999999999999.99);
  CHECK(number_code(currency, "100000000000000") == "NUMBER_OUTSIDE_VALID_RANGE");
  CHECK(number_code(currency, "-100000000000000") == "NUMBER_OUTSIDE_VALID_RANGE");
  CHECK(number_code(number_field(FieldType::kNumber, 4, 0), "10000") ==
        "NUMBER_OUTSIDE_VALID_RANGE");
  const FieldDef int_field = number_field(FieldType::kNumber, 18, 0);
  CHECK(number_value(int_field, "2147483647") == 2147483647);
  CHECK(number_value(int_field, "-2147483648") == -2147483648LL);
  CHECK(number_code(int_field, "3000000000") == "NUMBER_OUTSIDE_VALID_RANGE");
  CHECK(number_code(int_field, "2147483648") == "NUMBER_OUTSIDE_VALID_RANGE");
  CHECK(number_code(int_field, "-2147483649") == "NUMBER_OUTSIDE_VALID_RANGE");
  // A currency of scale 0 is no int: 3,000,000,000 fits its 18 digits.
  CHECK(number_value(number_field(FieldType::kCurrency, 18, 0), "3000000000") == 3000000000LL);
}

TEST_CASE("record values: lengths count characters, not UTF-8 bytes", "[domain][data]") {
  std::string e41, e81;
  for (int i = 0; i < 41; ++i) e41 += "\xC3\xA9";  // é: 2 bytes, 1 character
  e81 = e41;
  for (int i = 41; i < 81; ++i) e81 += "\xC3\xA9";
  auto ok = check({{"LastName", e41}});
  CHECK(ok.errors.empty());
  CHECK(ok.out["LastName"] == e41);
  auto long_one = check({{"LastName", e81}});
  REQUIRE(long_one.errors.size() == 1);
  CHECK(long_one.errors[0].code == "STRING_TOO_LONG");
  CHECK(long_one.errors[0].message ==
        "LastName: data value too large: " + e81 + " (max length=80)");
  CHECK(long_one.errors[0].fields == std::vector<std::string>{"LastName"});
}

TEST_CASE("record values: \"\" is null, and fills no required field", "[domain][data]") {
  auto created = check({{"LastName", ""}});
  REQUIRE(created.errors.size() == 1);
  CHECK(created.errors[0].code == "REQUIRED_FIELD_MISSING");
  CHECK(created.errors[0].fields == std::vector<std::string>{"LastName"});
  CHECK(first_code({{"LastName", ""}}, WriteKind::kUpdate) == "REQUIRED_FIELD_MISSING");
  auto cleared =
      check({{"LastName", "X"}, {"FirstName", ""}, {"Birthdate", ""}}, WriteKind::kUpdate);
  CHECK(cleared.errors.empty());
  CHECK(cleared.out == json{{"LastName", "X"}, {"FirstName", nullptr}, {"Birthdate", nullptr}});
}

TEST_CASE("record values: a date-time in any form the platform writes or takes", "[domain][data]") {
  FieldDef when;
  when.name = "When__c";
  when.type = FieldType::kDateTime;
  OrgConfig config;
  for (const char* sent :
       {"2027-01-05T08:11:12.123+0000", "2027-01-05T08:11:12.123Z", "2027-01-05T08:11:12Z",
        "2027-01-05T08:11:12+00:00", "2027-01-05T08:11:12.123+00:00", "2027-01-05T09:11:12+0100",
        "2027-01-05T03:11:12.123-0500"}) {
    INFO(sent);
    auto c = check_field_value(config, when, sent, false, nullptr);
    REQUIRE(c.ok());
    auto at = parse_iso8601(c.value.get<std::string>());
    REQUIRE(at);
    CHECK(format_iso8601(*at).substr(0, 19) == "2027-01-05T08:11:12");
  }
  for (const char* sent : {"2027-01-05T08:11:12+000", "2027-01-05T08:11:12+00000",
                           "2027-01-05T08:11:12+0o00", "2027-13-05T08:11:12Z", "yesterday"}) {
    INFO(sent);
    CHECK(check_field_value(config, when, sent, false, nullptr).code ==
          "INVALID_TYPE_ON_FIELD_IN_RECORD");
  }
  FieldDef day;
  day.name = "Day__c";
  day.type = FieldType::kDate;
  CHECK(check_field_value(config, day, "2027-01-05", false, nullptr).value == "2027-01-05");
  CHECK(check_field_value(config, day, "2027-02-30", false, nullptr).code ==
        "INVALID_TYPE_ON_FIELD_IN_RECORD");
}

TEST_CASE("record values: emails by the one rule, with the platform's message", "[domain][data]") {
  CHECK(check({{"LastName", "X"}, {"Email", "a..a@test.jp"}}).errors.empty());
  for (const char* bad : {"a@b", "nobody", "\xF0\x9F\x98\x80@example.org", ".a@test.jp"}) {
    INFO(bad);
    auto c = check({{"LastName", "X"}, {"Email", bad}});
    REQUIRE(c.errors.size() == 1);
    CHECK(c.errors[0].code == "INVALID_EMAIL_ADDRESS");
    CHECK(c.errors[0].message == std::string("Email: invalid email address: ") + bad);
    CHECK(c.errors[0].fields == std::vector<std::string>{"Email"});
  }
}
