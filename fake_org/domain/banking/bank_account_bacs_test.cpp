#include <catch2/catch.hpp>

#include <string>

#include "bank_account.h"

using namespace fake_org;

namespace {

BankAccountInput bacs(std::string sort_code, std::string account_number) {
  BankAccountInput in;
  in.sort_code = std::move(sort_code);
  in.account_number = std::move(account_number);
  in.account_holder = "Jane Doe";
  return in;
}

}  // namespace

TEST_CASE("Bacs accepts 6-digit sort codes and 8-digit accounts in the usual spellings", "[bank]") {
  // The sort code and account of the registry's GB example IBAN, GB29 NWBK 6016 1331 9268 19.
  for (const char* sort : {"601613", "60-16-13", "60 16 13", " 60-16-13 ", "60 - 16 - 13"}) {
    for (const char* account : {"31926819", "3192 6819", "3192-6819"}) {
      CAPTURE(sort, account);
      CHECK(validate_bacs_account(bacs(sort, account)).empty());
    }
  }
}

TEST_CASE("Bacs sort code errors", "[bank]") {
  struct Case {
    const char* sort;
    const char* message;
  };
  const Case cases[] = {
      {"", "Sort code is missing; send 6 digits (e.g. 12-34-56)"},
      {" - ", "Sort code is missing; send 6 digits (e.g. 12-34-56)"},
      {"60-16-1", "Sort code '60-16-1' has 5 digits; a UK sort code has exactly 6 (e.g. 12-34-56)"},
      {"60161300",
       "Sort code '60161300' has 8 digits; a UK sort code has exactly 6 (e.g. 12-34-56)"},
      {"60/16/13",
       "Sort code '60/16/13' contains '/'; only digits, spaces and dashes are allowed (e.g. "
       "12-34-56)"},
      {"NWBK60",
       "Sort code 'NWBK60' contains 'N'; only digits, spaces and dashes are allowed "
       "(e.g. 12-34-56)"},
      {"00-00-00", "Sort code '00-00-00' is all zeros and identifies no account"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.sort);
    const auto errors = validate_bacs_account(bacs(c.sort, "31926819"));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].code == "201");
    CHECK(errors[0].field == "PaymentMethod.Parameters.SortCode");
    CHECK(errors[0].message == c.message);
  }
}

TEST_CASE("Bacs account number errors", "[bank]") {
  struct Case {
    const char* account;
    const char* message;
  };
  const Case cases[] = {
      {"", "Account number is missing; send 8 digits (e.g. 12345678)"},
      {"3192681",
       "Account number '3192681' has 7 digits; a UK account number has exactly 8 (e.g. "
       "12345678)"},
      {"319268190",
       "Account number '319268190' has 9 digits; a UK account number has exactly 8 (e.g. "
       "12345678)"},
      {"3192681X",
       "Account number '3192681X' contains 'X'; only digits, spaces and dashes are allowed (e.g. "
       "12345678)"},
      {"00000000", "Account number '00000000' is all zeros and identifies no account"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.account);
    const auto errors = validate_bacs_account(bacs("60-16-13", c.account));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].code == "201");
    CHECK(errors[0].field == "PaymentMethod.Parameters.AccountNumber");
    CHECK(errors[0].message == c.message);
  }
}

TEST_CASE("Bacs reports sort code and account number together", "[bank]") {
  const auto errors = validate_bacs_account(bacs("12345", "1234"));
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].field == "PaymentMethod.Parameters.SortCode");
  CHECK(errors[1].field == "PaymentMethod.Parameters.AccountNumber");
  CHECK(errors[0].code == "201");
  CHECK(errors[1].code == "201");
}
