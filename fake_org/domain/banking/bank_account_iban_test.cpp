#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "bank_account.h"

using namespace fake_org;

namespace {

struct RegistryExample {
  const char* iban;
  const char* bank_code;
};

// The example IBAN of every country in the SWIFT IBAN registry (release 100).
const RegistryExample kRegistryExamples[] = {
    {"AD1200012030200359100100", "0001"},
    {"AE070331234567890123456", "033"},
    {"AL47212110090000000235698741", "212"},
    {"AT611904300234573201", "19043"},
    {"AZ21NABZ00000000137010001944", "NABZ"},
    {"BA391290079401028494", "129"},
    {"BE68539007547034", "539"},
    {"BG80BNBG96611020345678", "BNBG"},
    {"BH67BMAG00001299123456", "BMAG"},
    {"BI4210000100010000332045181", "10000"},
    {"BR1800360305000010009795493C1", "00360305"},
    {"BY13NBRB3600900000002Z00AB00", "NBRB"},
    {"CH9300762011623852957", "00762"},
    {"CR05015202001026284066", "0152"},
    {"CY17002001280000001200527600", "002"},
    {"CZ6508000000192000145399", "0800"},
    {"DE89370400440532013000", "37040044"},
    {"DJ2100010000000154000100186", "00010"},
    {"DK5000400440116243", "0040"},
    {"DO28BAGR00000001212453611324", "BAGR"},
    {"EE382200221020145685", "22"},
    {"EG380019000500000000263180002", "0019"},
    {"ES9121000418450200051332", "2100"},
    {"FI2112345600000785", "123"},
    {"FK88SC123456789012", "SC"},
    {"FO6264600001631634", "6460"},
    {"FR1420041010050500013M02606", "20041"},
    {"GB29NWBK60161331926819", "NWBK"},
    {"GE29NB0000000101904917", "NB"},
    {"GI75NWBK000000007099453", "NWBK"},
    {"GL8964710001000206", "6471"},
    {"GR1601101250000000012300695", "011"},
    {"GT82TRAJ01020000001210029690", "TRAJ"},
    {"HN88CABF00000000000250005469", "CABF"},
    {"HR1210010051863000160", "1001005"},
    {"HU42117730161111101800000000", "117"},
    {"IE29AIBK93115212345678", "AIBK"},
    {"IL620108000000099999999", "010"},
    {"IQ98NBIQ850123456789012", "NBIQ"},
    {"IS140159260076545510730339", "01"},
    {"IT60X0542811101000000123456", "05428"},
    {"JO94CBJO0010000000000131000302", "CBJO"},
    {"KW81CBKU0000000000001234560101", "CBKU"},
    {"KZ86125KZT5004100100", "125"},
    {"LB62099900000001001901229114", "0999"},
    {"LC55HEMM000100010012001200023015", "HEMM"},
    {"LI21088100002324013AA", "08810"},
    {"LT121000011101001000", "10000"},
    {"LU280019400644750000", "001"},
    {"LV80BANK0000435195001", "BANK"},
    {"LY83002048000020100120361", "002"},
    {"MC5811222000010123456789030", "11222"},
    {"MD24AG000225100013104168", "AG"},
    {"ME25505000012345678951", "505"},
    {"MK07250120000058984", "250"},
    {"MN121234123456789123", "1234"},
    {"MR1300020001010000123456753", "00020"},
    {"MT84MALT011000012345MTLCAST001S", "MALT"},
    {"MU17BOMM0101101030300200000MUR", "BOMM01"},
    {"NI45BAPR00000013000003558124", "BAPR"},
    {"NL91ABNA0417164300", "ABNA"},
    {"NO9386011117947", "8601"},
    {"OM810180000001299123456", "018"},
    {"PK36SCBL0000001123456702", "SCBL"},
    {"PL61109010140000071219812874", "10901014"},
    {"PS92PALS000000000400123456702", "PALS"},
    {"PT50000201231234567890154", "0002"},
    {"QA58DOHB00001234567890ABCDEFG", "DOHB"},
    {"RO49AAAA1B31007593840000", "AAAA"},
    {"RS35260005601001611379", "260"},
    {"RU0304452522540817810538091310419", "044525225"},
    {"SA0380000000608010167519", "80"},
    {"SC18SSCB11010000000000001497USD", "SSCB11"},
    {"SD2129010501234001", "29"},
    {"SE4550000000058398257466", "500"},
    {"SI56263300012039086", "26330"},
    {"SK3112000000198742637541", "1200"},
    {"SM86U0322509800000000270100", "03225"},
    {"SO211000001001000100141", "1000"},
    {"ST23000100010051845310146", "0001"},
    {"SV62CENR00000000000000700025", "CENR"},
    {"TL380080012345678910157", "008"},
    {"TN5910006035183598478831", "10"},
    {"TR330006100519786457841326", "00061"},
    {"UA213223130000026007233566001", "322313"},
    {"VA59001123000012345678", "001"},
    {"VG96VPVG0000012345678901", "VPVG"},
    {"XK051212012345678906", "12"},
    {"YE15CBYE0001018861234567891234", "CBYE"},
};

std::string print_format(const std::string& electronic) {
  std::string out;
  for (std::size_t i = 0; i < electronic.size(); ++i) {
    if (i > 0 && i % 4 == 0) out += ' ';
    out += electronic[i];
  }
  return out;
}

// The same character class, but a different character: a one-character typo.
char typo(char c) {
  if (c >= '0' && c <= '9') return c == '9' ? '0' : static_cast<char>(c + 1);
  return c == 'Z' ? 'A' : static_cast<char>(c + 1);
}

std::string message_of(const Result<IbanInfo>& r) {
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.errors().size() == 1);
  CHECK(r.errors()[0].code == "202");
  CHECK(r.errors()[0].field == "PaymentMethod.Parameters.IBAN");
  return r.errors()[0].message;
}

}  // namespace

TEST_CASE("every registry country's example IBAN is valid, with its length and bank code",
          "[bank]") {
  std::set<std::string> covered;
  for (const auto& example : kRegistryExamples) {
    const std::string iban = example.iban;
    CAPTURE(iban);
    const auto info = parse_iban(iban);
    REQUIRE(info.has_value());
    CHECK(info->electronic == iban);
    CHECK(info->country == iban.substr(0, 2));
    CHECK(info->bank_code == example.bank_code);
    CHECK(iban_length_for_country(info->country) == static_cast<int>(iban.size()));
    CHECK(iban_checksum_ok(iban));
    covered.insert(info->country);
  }
  // The table above and the validator's registry list the same 89 countries.
  const auto registry = iban_registry_countries();
  CHECK(registry.size() == 89);
  CHECK(covered == std::set<std::string>(registry.begin(), registry.end()));
}

TEST_CASE("print format, lower case and the IBAN prefix normalise to electronic format", "[bank]") {
  for (const auto& example : kRegistryExamples) {
    const std::string printed = print_format(example.iban);
    CAPTURE(printed);
    const auto info = parse_iban(printed);
    REQUIRE(info.has_value());
    CHECK(info->electronic == example.iban);
  }
  const auto lower = parse_iban("gb29 nwbk 6016 1331 9268 19");
  REQUIRE(lower.has_value());
  CHECK(lower->electronic == "GB29NWBK60161331926819");
  const auto prefixed = parse_iban("IBAN DE89 3704 0044 0532 0130 00");
  REQUIRE(prefixed.has_value());
  CHECK(prefixed->electronic == "DE89370400440532013000");
  CHECK(iban_electronic_format("  fr14 2004 1010 0505 0001 3m02 606 ") ==
        "FR1420041010050500013M02606");
}

TEST_CASE("a one-character typo anywhere in an example IBAN fails the mod-97 check", "[bank]") {
  for (const auto& example : kRegistryExamples) {
    const std::string iban = example.iban;
    // Character 5 onwards: the BBAN, whose structure the typo keeps intact.
    for (std::size_t i = 4; i < iban.size(); ++i) {
      std::string broken = iban;
      broken[i] = typo(broken[i]);
      CAPTURE(broken);
      CHECK_FALSE(iban_checksum_ok(broken));
      CHECK_FALSE(parse_iban(broken).has_value());
    }
  }
}

TEST_CASE("wrong check digits name the digits and the mod-97 failure", "[bank]") {
  CHECK(message_of(check_iban("DE88370400440532013000")) ==
        "IBAN DE88370400440532013000 has check digits 88 but the ISO 7064 mod-97 check fails: a "
        "character is mistyped or two are swapped");
  // Two swapped digits.
  CHECK_FALSE(parse_iban("GB29NWBK60161331926891").has_value());
  CHECK(parse_iban("NL91ABNA0417164300").has_value());
  CHECK_FALSE(parse_iban("NL91ABNA0417163400").has_value());
}

TEST_CASE("check digits 00, 01 and 99 are refused even when the remainder test passes", "[bank]") {
  // Each passes the bare remainder test because 00 = 97, 01 = 98 and 99 = 02 (mod 97).
  for (const char* iban :
       {"DE00370400440000000060", "DE01370400440000000042", "DE99370400440000000024"}) {
    CAPTURE(iban);
    CHECK(iban_checksum_ok(iban));
    CHECK_FALSE(parse_iban(iban).has_value());
  }
  CHECK(message_of(check_iban("DE99370400440000000024")) ==
        "IBAN DE99370400440000000024 has check digits 99, which ISO 7064 never produces (valid "
        "check digits are 02 to 98)");
  // Their ISO 7064 twins are the valid ones.
  CHECK(parse_iban("DE97370400440000000060").has_value());
  CHECK(parse_iban("DE98370400440000000042").has_value());
  CHECK(parse_iban("DE02370400440000000024").has_value());
}

TEST_CASE("wrong length names the country's registry length", "[bank]") {
  CHECK(message_of(check_iban("DE8937040044053201300")) ==
        "IBAN DE8937040044053201300 has 21 characters; an IBAN of Germany (DE) has exactly 22");
  CHECK(message_of(check_iban("NO93860111179470")) ==
        "IBAN NO93860111179470 has 16 characters; an IBAN of Norway (NO) has exactly 15");
  CHECK(message_of(check_iban("MT84MALT011000012345MTLCAST001")) ==
        "IBAN MT84MALT011000012345MTLCAST001 has 30 characters; an IBAN of Malta (MT) has "
        "exactly 31");
  for (const auto& example : kRegistryExamples) {
    const std::string iban = example.iban;
    CHECK_FALSE(parse_iban(iban.substr(0, iban.size() - 1)).has_value());
    CHECK_FALSE(parse_iban(iban + "0").has_value());
  }
}

TEST_CASE("unknown country codes are refused", "[bank]") {
  CHECK(message_of(check_iban("US64SVBKUS6S3300958879")) ==
        "IBAN US64SVBKUS6S3300958879 starts with US, which is not a country of the SWIFT IBAN "
        "registry");
  CHECK_FALSE(parse_iban("XX82WEST12345698765432").has_value());
  CHECK_FALSE(parse_iban("AO06004400006729503010102").has_value());  // Angola: not in registry
  CHECK(iban_length_for_country("US") == 0);
  CHECK(message_of(check_iban("1289370400440532013000")) ==
        "IBAN 1289370400440532013000 does not start with a two-letter country code");
}

TEST_CASE("bad characters are named with their position", "[bank]") {
  CHECK(message_of(check_iban("DE89-3704-0044-0532-0130-00")) ==
        "IBAN DE89-3704-0044-0532-0130-00 contains '-' at position 5; an IBAN has only letters "
        "A-Z and digits (spaces are ignored)");
  CHECK_FALSE(parse_iban("DE89370400440532013.00").has_value());
  CHECK_FALSE(parse_iban("DE89 3704 0044 0532 0130 0\xC3\xB6").has_value());
  CHECK(message_of(check_iban("")) ==
        "IBAN is empty: send the account's IBAN, e.g. DE89 3704 0044 0532 0130 00");
  CHECK(message_of(check_iban("   ")) ==
        "IBAN is empty: send the account's IBAN, e.g. DE89 3704 0044 0532 0130 00");
}

TEST_CASE("the BBAN must match the country's registry structure", "[bank]") {
  // A letter where Germany's BBAN has digits.
  CHECK(message_of(check_iban("DE89370400440532O13000")) ==
        "IBAN DE89370400440532O13000 does not fit the format of Germany (DE + 2 check digits + 8 "
        "digits, 10 digits): character 17 ('O') must be a digit");
  // A digit where the Netherlands' BBAN has the 4-letter bank code.
  CHECK(message_of(check_iban("NL91ABN00417164300")) ==
        "IBAN NL91ABN00417164300 does not fit the format of Netherlands (NL + 2 check digits + 4 "
        "letters, 10 digits): character 8 ('0') must be a letter");
  // Italy's CIN is a letter.
  CHECK_FALSE(parse_iban("IT6010542811101000000123456").has_value());
  // Check digits that are not digits.
  CHECK(message_of(check_iban("GBAANWBK60161331926819")) ==
        "IBAN GBAANWBK60161331926819 has check digits 'AA'; characters 3 and 4 of an IBAN are "
        "two digits");
}

TEST_CASE("territory codes use their parent's format", "[bank]") {
  const auto territories = iban_territory_codes();
  CHECK(territories.size() == 16);
  for (const auto& code : territories) CHECK(iban_length_for_country(code) > 0);
  CHECK(iban_length_for_country("GF") == 27);
  CHECK(iban_length_for_country("JE") == 22);
  CHECK(iban_length_for_country("AX") == 18);

  const auto guiana = parse_iban("GF4120041010050500013M02606");
  REQUIRE(guiana.has_value());
  CHECK(guiana->country == "GF");
  CHECK(guiana->bank_code == "20041");
  const auto jersey = parse_iban("JE90NWBK60161331926819");
  REQUIRE(jersey.has_value());
  CHECK(jersey->bank_code == "NWBK");
  CHECK(parse_iban("AX2112345600000785").has_value());
  CHECK_FALSE(parse_iban("GF1420041010050500013M02606").has_value());  // FR's check digits
}

TEST_CASE("parsed IBANs carry SEPA and EEA membership", "[bank]") {
  struct Case {
    const char* iban;
    bool sepa, eea;
  };
  const Case cases[] = {
      {"DE89370400440532013000", true, true},
      {"NO9386011117947", true, true},
      {"IS140159260076545510730339", true, true},
      {"LI21088100002324013AA", true, true},
      {"GB29NWBK60161331926819", true, false},
      {"CH9300762011623852957", true, false},
      {"MC5811222000010123456789030", true, false},
      {"SM86U0322509800000000270100", true, false},
      {"AD1200012030200359100100", true, false},
      {"VA59001123000012345678", true, false},
      {"GI75NWBK000000007099453", true, false},
      {"AL47212110090000000235698741", true, false},
      {"ME25505000012345678951", true, false},
      {"MD24AG000225100013104168", true, false},
      {"MK07250120000058984", true, false},
      {"RS35260005601001611379", true, false},
      {"GF4120041010050500013M02606", true, true},
      {"JE90NWBK60161331926819", true, false},
      {"NC8420041010050500013M02606", false, false},
      {"TR330006100519786457841326", false, false},
      {"BR1800360305000010009795493C1", false, false},
      {"SA0380000000608010167519", false, false},
      {"AE070331234567890123456", false, false},
      {"IL620108000000099999999", false, false},
      {"FO6264600001631634", false, false},
      {"GL8964710001000206", false, false},
      {"BA391290079401028494", false, false},
      {"XK051212012345678906", false, false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.iban);
    const auto info = parse_iban(c.iban);
    REQUIRE(info.has_value());
    CHECK(info->sepa == c.sepa);
    CHECK(info->eea == c.eea);
  }
}
