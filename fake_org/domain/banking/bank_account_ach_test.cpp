#include <catch2/catch.hpp>

#include <string>

#include "bank_account.h"

using namespace fake_org;

namespace {

BankAccountInput ach(std::string routing, std::string account) {
  BankAccountInput in;
  in.routing_number = std::move(routing);
  in.account_number = std::move(account);
  in.account_holder = "Sam Okafor";
  return in;
}

}  // namespace

TEST_CASE("ABA check digit: weights 3-7-1 over the nine digits", "[bank][ach]") {
  // Routing numbers printed on real cheques (Federal Reserve Banks, large banks).
  for (const char* good : {"011000015", "021000021", "026009593", "122105155", "111000025"}) {
    CAPTURE(good);
    CHECK(aba_checksum_ok(good));
  }
  for (const char* bad : {"011000016", "021000012", "12345678", "0110000150", "01100001a"}) {
    CAPTURE(bad);
    CHECK_FALSE(aba_checksum_ok(bad));
  }
}

TEST_CASE("ACH accepts a valid routing and account number in the usual spellings", "[bank][ach]") {
  for (const char* routing : {"011000015", "0110-0001-5", " 011 000 015 "}) {
    for (const char* account : {"000123456789", "1234", "12345678901234567", "0001-2345-6789"}) {
      CAPTURE(routing, account);
      CHECK(validate_ach_account(ach(routing, account)).empty());
    }
  }
}

TEST_CASE("ACH errors are 200 and name the parameter", "[bank][ach]") {
  struct Case {
    const char* routing;
    const char* account;
    const char* field;
    const char* message;
  };
  const Case cases[] = {
      {"011000016", "000123456789", "PaymentMethod.Parameters.RoutingNumber",
       "RoutingNumber '011000016' fails the ABA check digit (3-7-1 weights); check for a typo"},
      {"01100001", "000123456789", "PaymentMethod.Parameters.RoutingNumber",
       "RoutingNumber '01100001' has 8 digits; an ABA routing number has exactly 9 (e.g. "
       "011000015)"},
      {"000000000", "000123456789", "PaymentMethod.Parameters.RoutingNumber",
       "RoutingNumber '000000000' is all zeros and identifies no bank"},
      {"O11000015", "000123456789", "PaymentMethod.Parameters.RoutingNumber",
       "RoutingNumber 'O11000015' contains 'O'; an ABA routing number has 9 digits (e.g. "
       "011000015)"},
      {"", "000123456789", "PaymentMethod.Parameters.RoutingNumber",
       "RoutingNumber is missing; send the 9-digit ABA routing number"},
      {"011000015", "123", "PaymentMethod.Parameters.AccountNumber",
       "AccountNumber '123' has 3 digits; a US bank account number has 4 to 17"},
      {"011000015", "123456789012345678", "PaymentMethod.Parameters.AccountNumber",
       "AccountNumber '123456789012345678' has 18 digits; a US bank account number has 4 to 17"},
      {"011000015", "0000", "PaymentMethod.Parameters.AccountNumber",
       "AccountNumber '0000' is all zeros and identifies no account"},
      {"011000015", "12AB56", "PaymentMethod.Parameters.AccountNumber",
       "AccountNumber '12AB56' contains 'A'; a US bank account number has only digits"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.routing, c.account);
    auto errors = validate_ach_account(ach(c.routing, c.account));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].code == "200");
    CHECK(errors[0].field == c.field);
    CHECK(errors[0].message == c.message);
  }
  // Both wrong: one error each.
  CHECK(validate_ach_account(ach("1", "1")).size() == 2);
}
