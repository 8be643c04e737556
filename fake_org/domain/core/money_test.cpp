#include "money.h"

#include <catch2/catch.hpp>

using namespace fake_org;
using nlohmann::json;

TEST_CASE("amounts arrive as numbers or numeric strings", "[money]") {
  CHECK(parse_amount(json(25), 2, "EUR", "OneTime.Amount")->minor == 2500);
  CHECK(parse_amount(json(19.99), 2, "EUR", "OneTime.Amount")->minor == 1999);
  CHECK(parse_amount(json("19.99"), 2, "EUR", "OneTime.Amount")->minor == 1999);
  CHECK(parse_amount(json(" 7.5 "), 2, "EUR", "OneTime.Amount")->minor == 750);
  CHECK(parse_amount(json(0.1), 2, "EUR", "OneTime.Amount")->minor == 10);
  CHECK(parse_amount(json("10.500"), 2, "EUR", "OneTime.Amount")->minor == 1050);
  CHECK(parse_amount(json(1000), 0, "JPY", "OneTime.Amount")->minor == 1000);
  CHECK(parse_amount(json("1.234"), 3, "KWD", "OneTime.Amount")->minor == 1234);
  CHECK(parse_amount(json(-5), 2, "EUR", "OneTime.Amount")->minor == -500);
}

TEST_CASE("precision follows the currency's minor units", "[money]") {
  auto r = parse_amount(json(10.005), 2, "EUR", "OneTime.Amount");
  REQUIRE_FALSE(r.ok());
  CHECK(r.errors()[0].code == "200");
  CHECK(r.errors()[0].field == "OneTime.Amount");
  CHECK(r.errors()[0].message ==
        "OneTime.Amount '10.005' has more decimal places than EUR allows (2)");
  CHECK_FALSE(parse_amount(json("100.5"), 0, "JPY", "OneTime.Amount").ok());
  CHECK_FALSE(parse_amount(json("1.2345"), 3, "KWD", "OneTime.Amount").ok());
}

TEST_CASE("non-numbers are refused with the field named", "[money]") {
  for (const json& v : {json("abc"), json(""), json("1,5"), json(true), json::object(),
                        json::array(), json(nullptr), json("1e"), json("."), json("12.3.4")}) {
    auto r = parse_amount(v, 2, "EUR", "OneTime.Amount");
    REQUIRE_FALSE(r.ok());
    CHECK(r.errors()[0].code == "200");
    CHECK(r.errors()[0].message.rfind("OneTime.Amount", 0) == 0);
  }
  CHECK_FALSE(parse_amount(json("12345678901234567"), 2, "EUR", "OneTime.Amount").ok());
}

TEST_CASE("money prints with the currency's precision", "[money]") {
  CHECK(Money{1999, 2, "EUR"}.to_string() == "19.99");
  CHECK(Money{5, 2, "EUR"}.to_string() == "0.05");
  CHECK(Money{1000, 0, "JPY"}.to_string() == "1000");
  CHECK(Money{1234, 3, "KWD"}.to_string() == "1.234");
  CHECK(Money{1999, 2, "EUR"}.to_json_number().dump() == "19.99");
  CHECK(Money{2500, 2, "EUR"}.to_json_number().dump() == "25");
}
