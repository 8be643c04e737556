#include <catch2/catch.hpp>

#include <string>

#include "bank_account.h"

using namespace fake_org;

namespace {

BankAccountInput se(std::string clearing, std::string account) {
  BankAccountInput in;
  in.clearing_number = std::move(clearing);
  in.account_number = std::move(account);
  in.account_holder = "Sven Svensson";
  return in;
}

std::string single_message(const ApiErrors& errors, const char* field) {
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].code == "206");
  CHECK(errors[0].field == field);
  return errors[0].message;
}

const char* const kClearingField = "PaymentMethod.Parameters.ClearingNumber";
const char* const kAccountField = "PaymentMethod.Parameters.AccountNumber";

}  // namespace

TEST_CASE("published Swedish test accounts are valid", "[bank]") {
  struct Case {
    const char* clearing;
    const char* account;
  };
  // Test numbers of the open-source kontonummer and banktools-se libraries.
  const Case cases[] = {
      {"9071", "417 23 83"},        // Multitude Bank, type 1 comment 1
      {"9789", "1111113"},          // Klarna Bank, type 1 comment 2
      {"6789", "123456789"},        // Handelsbanken, type 2 comment 2
      {"8424-4", "983 189 224-6"},  // Swedbank, 5-digit clearing
      {"8351-9", "392 242 224-5"},  // Sparbanken Tanum (Swedbank series)
      {"8129-9", "043 386 711-6"},  // Sparbank i Hudiksvall (Swedbank series)
      {"8424", "9831892246"},       // Swedbank, clearing check digit left out
      {"3300", "000620-5124"},      // Nordea personkonto
      {"3300", "800928-6249"},      // Nordea personkonto
      {"3782", "8009286249"},       // Nordea personkonto
      {"9180", "3922422245"},       // Danske Bank, type 2 comment 1
      {"9300", "3922422245"},       // Swedbank (formerly Sparbanken Öresund)
      {"9570", "3922422245"},       // Sparbanken Syd
  };
  for (const auto& c : cases) {
    CAPTURE(c.clearing, c.account);
    CHECK(validate_swedish_account(se(c.clearing, c.account)).empty());
  }
}

TEST_CASE("type 1 accounts of every bank pass with the right check digit only", "[bank]") {
  struct Case {
    const char* clearing;
    const char* account;  // 7 digits whose last is the only valid check digit
    const char* bank;
    int comment;
  };
  const Case cases[] = {
      {"1100", "0123456", "Nordea", 1},
      {"1234", "0123453", "Danske Bank", 1},
      {"1400", "0123459", "Nordea", 1},
      {"2300", "0123456", "Ålandsbanken", 2},
      {"2400", "0123459", "Danske Bank", 1},
      {"3000", "0123455", "Nordea", 1},
      {"3301", "0123450", "Nordea", 1},
      {"3400", "0123459", "Länsförsäkringar Bank", 1},
      {"3410", "0123450", "Nordea", 1},
      {"3783", "0123454", "Nordea", 1},
      {"4164", "0123454", "Nordea", 2},
      {"5000", "0123455", "SEB", 1},
      {"7000", "0123455", "Swedbank", 1},
      {"9020", "0123450", "Länsförsäkringar Bank", 2},
      {"9040", "0123454", "Citibank", 2},
      {"9060", "0123456", "Länsförsäkringar Bank", 1},
      {"9100", "0123458", "Nordnet Bank", 2},
      {"9120", "6543213", "SEB", 1},
      {"9150", "0123457", "Skandiabanken", 2},
      {"9170", "0123459", "IKANO Bank", 1},
      {"9190", "0123454", "DNB Bank", 2},
      {"9230", "0123452", "Marginalen Bank", 1},
      {"9250", "0123456", "SBAB", 1},
      {"9270", "6543213", "ICA Banken", 1},
      {"9280", "0123451", "Resurs Bank", 1},
      {"9390", "0123456", "Landshypotek", 2},
      {"9400", "0123459", "Forex Bank", 1},
      {"9460", "6543213", "Santander Consumer Bank", 1},
      {"9470", "0123453", "BNP Paribas", 2},
      {"9550", "0123450", "Avanza Bank", 2},
      {"9580", "0123454", "Aion Bank", 1},
      {"9590", "0123458", "Erik Penser", 2},
      {"9630", "0123456", "Lån & Spar Bank Sverige", 1},
      {"9640", "6543213", "NOBA Bank Group", 2},
      {"9660", "0123453", "Svea Bank", 2},
      {"9670", "0123455", "JAK Medlemsbank", 2},
      {"9680", "0123455", "BlueStep Finans", 1},
      {"9700", "0123453", "Ekobanken", 2},
      {"9710", "0123455", "Lunar Bank", 2},
      {"9750", "0123452", "Northmill Bank", 2},
      {"9780", "0123458", "Klarna Bank", 2},
      {"9880", "0123459", "Riksgälden", 2},
  };
  for (const auto& c : cases) {
    CAPTURE(c.clearing, c.account);
    const auto bank = swedish_bank_for_clearing(c.clearing);
    REQUIRE(bank.has_value());
    CHECK(bank->name == c.bank);
    CHECK(bank->type == 1);
    CHECK(bank->comment == c.comment);
    CHECK(validate_swedish_account(se(c.clearing, c.account)).empty());
    std::string other = c.account;
    for (char digit = '0'; digit <= '9'; ++digit) {
      if (digit == other.back()) continue;
      other.back() = digit;
      CHECK(validate_swedish_account(se(c.clearing, other)).size() == 1);
      other.back() = c.account[6];
    }
  }
}

TEST_CASE("the comment decides whether the whole clearing number is in the check", "[bank]") {
  // 4164 is Nordea comment 2 (whole clearing): valid under comment 1 only.
  CHECK(single_message(validate_swedish_account(se("4164", "0123458")), kAccountField) ==
        "Account number '0123458' with clearing number 4164 (Nordea) fails the check digit (mod "
        "11 over the clearing number and the account number): a digit is mistyped or the "
        "clearing number is wrong");
  // 7000 is Swedbank comment 1 (last three clearing digits): valid under comment 2 only.
  CHECK(single_message(validate_swedish_account(se("7000", "0123459")), kAccountField) ==
        "Account number '0123459' with clearing number 7000 (Swedbank) fails the check digit "
        "(mod 11 over the last three clearing digits and the account number): a digit is "
        "mistyped or the clearing number is wrong");
}

TEST_CASE("serials without any valid check digit are never accepted", "[bank]") {
  // For SEB 9120 and serial 012345 the mod-11 remainder needs a check digit of 10.
  for (char digit = '0'; digit <= '9'; ++digit) {
    std::string account = "012345";
    account += digit;
    CHECK(validate_swedish_account(se("9120", account)).size() == 1);
  }
}

TEST_CASE("type 2 accounts: Handelsbanken mod 11, Luhn for the others", "[bank]") {
  CHECK(validate_swedish_account(se("6000", "876543212")).empty());
  CHECK(validate_swedish_account(se("6999", "100000002")).empty());
  CHECK(single_message(validate_swedish_account(se("6789", "123456788")), kAccountField) ==
        "Account number '123456788' with clearing number 6789 (Handelsbanken) fails the check "
        "digit (mod 11 over the account number): a digit is mistyped or the clearing number is "
        "wrong");
  CHECK(single_message(validate_swedish_account(se("6789", "12345678")), kAccountField) ==
        "Account number '12345678' has 8 digits; accounts at Handelsbanken (clearing 6789) have 9 "
        "digits after the clearing number");

  CHECK(validate_swedish_account(se("3300", "3912319997")).empty());
  CHECK(single_message(validate_swedish_account(se("3300", "3912319998")), kAccountField) ==
        "Account number '3912319998' with clearing number 3300 (Nordea (personkonto)) fails the "
        "check digit (mod 10 over the account number): a digit is mistyped or the clearing "
        "number is wrong");
  CHECK(validate_swedish_account(se("3300", "391231999")).size() == 1);  // 9 digits

  // Plusgirot and Swedbank 8xxx: up to 10 digits, Luhn.
  CHECK(validate_swedish_account(se("9500", "4123451")).empty());
  CHECK(validate_swedish_account(se("9960", "12345674")).empty());
  CHECK(validate_swedish_account(se("8327-9", "123456782")).empty());
  CHECK(validate_swedish_account(se("8105-9", "914767478-3")).empty());
  CHECK(validate_swedish_account(se("8105-9", "914767478-4")).size() == 1);
}

TEST_CASE("Swedbank's fifth clearing digit is checked", "[bank]") {
  CHECK(single_message(validate_swedish_account(se("8424-1", "983 189 224-6")), kClearingField) ==
        "Clearing number '8424-1': the fifth digit of a Swedbank 8xxx-x clearing number is a "
        "mod-10 check digit and does not match 8424");
  CHECK(validate_swedish_account(se("8000-2", "9831892246")).empty());
  CHECK(single_message(validate_swedish_account(se("8424", "49831892246")), kAccountField) ==
        "Account number '49831892246' has 11 digits; accounts at Swedbank (clearing 8424) have "
        "at most 10 digits after the clearing number; if the first digit is the clearing "
        "number's fifth digit, send it with the clearing number");
}

TEST_CASE("clearing number errors", "[bank]") {
  CHECK(single_message(validate_swedish_account(se("", "0123456")), kClearingField) ==
        "Clearing number is missing; send the 4-digit clearing number (5 digits for Swedbank's "
        "8xxx-x series)");
  CHECK(single_message(validate_swedish_account(se("1000", "0123456")), kClearingField) ==
        "Clearing number 1000 is not assigned to any bank in Bankgirot's clearing number table");
  for (const char* unassigned : {"0999", "2100", "2299", "9000", "9210", "9999"}) {
    CAPTURE(unassigned);
    CHECK(validate_swedish_account(se(unassigned, "0123456")).size() == 1);
    CHECK_FALSE(swedish_bank_for_clearing(unassigned).has_value());
  }
  CHECK(single_message(validate_swedish_account(se("12345", "0123456")), kClearingField) ==
        "Clearing number '12345' has 5 digits; Swedish clearing numbers have 4 (5 only in "
        "Swedbank's 8xxx-x series)");
  CHECK(single_message(validate_swedish_account(se("123", "0123456")), kClearingField) ==
        "Clearing number '123' has 3 digits; Swedish clearing numbers have 4 (5 only in "
        "Swedbank's 8xxx-x series)");
  CHECK(single_message(validate_swedish_account(se("11O0", "0123456")), kClearingField) ==
        "Clearing number '11O0' may contain only digits");
}

TEST_CASE("account number errors", "[bank]") {
  CHECK(single_message(validate_swedish_account(se("1100", "")), kAccountField) ==
        "Account number is missing for clearing number 1100 (Nordea)");
  CHECK(single_message(validate_swedish_account(se("1100", "012345A")), kAccountField) ==
        "Account number '012345A' may contain only digits, spaces, dashes and dots");
  CHECK(single_message(validate_swedish_account(se("1100", "01234560")), kAccountField) ==
        "Account number '01234560' has 8 digits; accounts at Nordea (clearing 1100) have 7 "
        "digits after the clearing number");
  CHECK(single_message(validate_swedish_account(se("9500", "00-00")), kAccountField) ==
        "Account number '00-00' is all zeros");
  CHECK(validate_swedish_account(se("1100", "012.34.56")).empty());
}

TEST_CASE("clearing lookup by bank", "[bank]") {
  const auto shb = swedish_bank_for_clearing("6000");
  REQUIRE(shb.has_value());
  CHECK(shb->name == "Handelsbanken");
  CHECK(shb->type == 2);
  CHECK(shb->comment == 2);
  const auto swedbank = swedish_bank_for_clearing("83279");
  REQUIRE(swedbank.has_value());
  CHECK(swedbank->name == "Swedbank");
  CHECK(swedbank->comment == 3);
  CHECK(swedish_bank_for_clearing("3300")->type == 2);
  CHECK(swedish_bank_for_clearing("3299")->type == 1);
  CHECK(swedish_bank_for_clearing("3782")->name == "Nordea (personkonto)");
  CHECK(swedish_bank_for_clearing("9890")->comment == 1);
  CHECK_FALSE(swedish_bank_for_clearing("12").has_value());
  CHECK_FALSE(swedish_bank_for_clearing("ABCD").has_value());
}
