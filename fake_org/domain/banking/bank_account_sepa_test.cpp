#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "bank_account.h"

using namespace fake_org;

namespace {

BankAccountInput sepa(std::string iban, std::string bic = "") {
  BankAccountInput in;
  in.iban = std::move(iban);
  in.bic = std::move(bic);
  in.account_holder = "Jane Doe";
  return in;
}

BankAccountInput with_address(BankAccountInput in) {
  in.street = "Bahnhofstrasse";
  in.house_number_or_name = "45";
  in.postal_code = "8001";
  in.city = "Zurich";
  return in;
}

std::vector<std::string> codes(const ApiErrors& errors) {
  std::vector<std::string> out;
  for (const auto& e : errors) out.push_back(e.code);
  return out;
}

std::vector<std::string> fields(const ApiErrors& errors) {
  std::vector<std::string> out;
  for (const auto& e : errors) out.push_back(e.field);
  return out;
}

}  // namespace

TEST_CASE("EEA accounts need neither BIC nor address", "[bank]") {
  for (const char* iban :
       {"DE89370400440532013000", "FR1420041010050500013M02606", "NL91ABNA0417164300",
        "SE4550000000058398257466", "NO9386011117947", "MT84MALT011000012345MTLCAST001S",
        "IS140159260076545510730339", "LI21088100002324013AA", "AT611904300234573201",
        "PL61109010140000071219812874", "GF4120041010050500013M02606", "AX2112345600000785"}) {
    CAPTURE(iban);
    CHECK(validate_sepa_account(sepa(iban)).empty());
  }
  CHECK(validate_sepa_account(sepa("DE89 3704 0044 0532 0130 00", "COBADEFFXXX")).empty());
  CHECK(validate_sepa_account(sepa("de89370400440532013000", "deut de ff")).empty());
}

TEST_CASE("an invalid IBAN is error 202 and nothing else is checked", "[bank]") {
  const auto errors = validate_sepa_account(sepa("CH9300762011623852958"));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].code == "202");
  CHECK(errors[0].field == "PaymentMethod.Parameters.IBAN");
  CHECK(errors[0].message ==
        "IBAN CH9300762011623852958 has check digits 93 but the ISO 7064 mod-97 check fails: a "
        "character is mistyped or two are swapped");
}

TEST_CASE("a valid IBAN outside the SEPA zone is error 203", "[bank]") {
  const auto errors = validate_sepa_account(sepa("TR33 0006 1005 1978 6457 8413 26"));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].code == "203");
  CHECK(errors[0].field == "PaymentMethod.Parameters.IBAN");
  CHECK(errors[0].message ==
        "IBAN TR330006100519786457841326 is from Türkiye (TR), which is outside the SEPA zone; "
        "SEPA direct debit can only collect from accounts in SEPA countries");
  for (const char* iban :
       {"BR1800360305000010009795493C1", "SA0380000000608010167519", "AE070331234567890123456",
        "IL620108000000099999999", "UA213223130000026007233566001", "GL8964710001000206",
        "FO6264600001631634", "BA391290079401028494", "NC8420041010050500013M02606",
        "PF5720041010050500013M02606"}) {
    CAPTURE(iban);
    CHECK(codes(validate_sepa_account(with_address(sepa(iban, "")))) ==
          std::vector<std::string>{"203"});
  }
}

TEST_CASE("non-EEA SEPA accounts need a BIC (204) and the full address (205)", "[bank]") {
  const auto errors = validate_sepa_account(sepa("GB29 NWBK 6016 1331 9268 19"));
  CHECK(codes(errors) == std::vector<std::string>{"204", "205", "205", "205", "205"});
  CHECK(fields(errors) == std::vector<std::string>{"PaymentMethod.Parameters.BIC",
                                                   "PaymentMethod.Parameters.Street",
                                                   "PaymentMethod.Parameters.HouseNumberOrName",
                                                   "PaymentMethod.Parameters.PostalCode",
                                                   "PaymentMethod.Parameters.City"});
  CHECK(errors[0].message ==
        "BIC is required: the account GB29NWBK60161331926819 is in United Kingdom (GB), a SEPA "
        "country outside the EEA, and SEPA direct debit from such accounts needs the bank's BIC");
  // The message names the parameter read, not a field of the payer's CRM
  // address (QA: "The payer's street is required" for a payer who had sent
  // Payer.Contact.CrmFields.MailingStreet).
  CHECK(errors[1].message ==
        "PaymentMethod.Parameters.Street is required: SEPA direct debit from an account in "
        "United Kingdom (GB), outside the EEA, needs the account holder's address in "
        "PaymentMethod.Parameters (Street, HouseNumberOrName, PostalCode and City); the payer's "
        "CRM fields (Payer.Contact.CrmFields.MailingStreet and the like) are not read for it");
  CHECK(errors[4].message.rfind("PaymentMethod.Parameters.City is required: ", 0) == 0);

  CHECK(validate_sepa_account(with_address(sepa("GB29NWBK60161331926819", "NWBKGB2L"))).empty());
  CHECK(validate_sepa_account(with_address(sepa("CH9300762011623852957", "UBSWCHZH80A"))).empty());
}

TEST_CASE("every non-EEA SEPA country needs the BIC and address", "[bank]") {
  struct Case {
    const char* iban;
    const char* bic;
  };
  const Case cases[] = {
      {"CH9300762011623852957", "UBSWCHZH80A"},     {"MC5811222000010123456789030", "CMCIMCM1"},
      {"SM86U0322509800000000270100", "BSDISMSD"},  {"AD1200012030200359100100", "BACAADAD"},
      {"VA59001123000012345678", "IOPRVAVX"},       {"GI75NWBK000000007099453", "NWBKGIGI"},
      {"AL47212110090000000235698741", "NCBAALTX"}, {"ME25505000012345678951", "CKBCMEPG"},
      {"MD24AG000225100013104168", "AGRNMD2X"},     {"MK07250120000058984", "STOBMK2X"},
      {"RS35260005601001611379", "AIKBRS22"},       {"JE90NWBK60161331926819", "NWBKJESH"},
      {"PM3620041010050500013M02606", "BNPAFRPP"},  {"BL6820041010050500013M02606", "BNPAFRPP"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.iban);
    CHECK(codes(validate_sepa_account(sepa(c.iban))) ==
          std::vector<std::string>{"204", "205", "205", "205", "205"});
    CHECK(validate_sepa_account(with_address(sepa(c.iban, c.bic))).empty());
  }
}

TEST_CASE("a missing or blank address part is reported on its own field", "[bank]") {
  auto in = with_address(sepa("CH9300762011623852957", "UBSWCHZH80A"));
  in.house_number_or_name = "   ";
  in.postal_code.clear();
  const auto errors = validate_sepa_account(in);
  CHECK(codes(errors) == std::vector<std::string>{"205", "205"});
  CHECK(fields(errors) == std::vector<std::string>{"PaymentMethod.Parameters.HouseNumberOrName",
                                                   "PaymentMethod.Parameters.PostalCode"});
  CHECK(errors[0].message.rfind(
            "PaymentMethod.Parameters.HouseNumberOrName (or HouseNameOrNumber) is required: SEPA "
            "direct debit from an account in Switzerland (CH), outside the EEA",
            0) == 0);
  CHECK(errors[1].message.rfind("PaymentMethod.Parameters.PostalCode is required: ", 0) == 0);
}

TEST_CASE("a given BIC must be well formed, for EEA accounts too", "[bank]") {
  auto bad = validate_sepa_account(sepa("DE89370400440532013000", "DEUTDEF"));
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].code == "204");
  CHECK(bad[0].field == "PaymentMethod.Parameters.BIC");
  CHECK(bad[0].message ==
        "BIC DEUTDEF is not a valid ISO 9362 BIC: it has 7 characters; a BIC "
        "has 8 or 11");

  bad = validate_sepa_account(with_address(sepa("GB29NWBK60161331926819", "NWBKGB2LXAB")));
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].message ==
        "BIC NWBKGB2LXAB is not a valid ISO 9362 BIC: it has branch code XAB; "
        "a branch code starting with X must be XXX");
}

TEST_CASE("the BIC's country must be the IBAN's, with the documented exceptions", "[bank]") {
  auto errors = validate_sepa_account(sepa("DE89370400440532013000", "BNPAFRPP"));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].code == "204");
  CHECK(errors[0].message ==
        "BIC BNPAFRPP belongs to a bank in FR but the IBAN DE89370400440532013000 is from Germany "
        "(DE); send the BIC of the bank that holds the account");

  errors = validate_sepa_account(with_address(sepa("CH9300762011623852957", "DEUTDEFF")));
  CHECK(codes(errors) == std::vector<std::string>{"204"});
  // Monaco accounts are not served by French BICs.
  CHECK(codes(validate_sepa_account(with_address(
            sepa("MC5811222000010123456789030", "BNPAFRPP")))) == std::vector<std::string>{"204"});

  // Channel Islands / Isle of Man accounts with UK BICs and the other way round.
  CHECK(validate_sepa_account(with_address(sepa("GB29NWBK60161331926819", "RBOSGGSX"))).empty());
  CHECK(validate_sepa_account(with_address(sepa("JE90NWBK60161331926819", "NWBKGB2L"))).empty());
  // French overseas departments with French BICs, and a French account with a DOM BIC.
  CHECK(validate_sepa_account(sepa("GF4120041010050500013M02606", "BNPAFRPP")).empty());
  CHECK(validate_sepa_account(sepa("FR1420041010050500013M02606", "BDAFGPGP")).empty());
  CHECK(validate_sepa_account(sepa("AX2112345600000785", "AABAFI22")).empty());
}

TEST_CASE("ISO 9362 BIC structure", "[bank]") {
  for (const char* bic : {"DEUTDEFF", "DEUTDEFF500", "NEDSZAJJXXX", "UBSWCHZH80A", "BNPAFRPPXXX",
                          "deutdeff", "NWBKGB2L", "AAAABB00"}) {
    CAPTURE(bic);
    CHECK(is_well_formed_bic(bic));
  }
  for (const char* bic : {"", "DEUTDEF", "DEUTDEFF5", "DEUTDEFF50", "DEUTDEFF5000", "DEU1DEFF",
                          "DEUTD3FF", "DEUTDEF!", "DEUTDEFF5_0", "DEUTDEFFXAB", "DEUT DEFF"}) {
    CAPTURE(bic);
    CHECK_FALSE(is_well_formed_bic(bic));
  }
}

TEST_CASE("SEPA and EEA country tables", "[bank]") {
  for (const char* c : {"DE", "FR", "IE", "HR", "CY", "BG", "RO", "IS", "LI", "NO", "AX", "GP",
                        "MQ", "RE", "YT", "MF", "GF"}) {
    CAPTURE(c);
    CHECK(is_eea_country(c));
    CHECK(is_sepa_country(c));
  }
  for (const char* c : {"CH", "GB", "GI", "GG", "JE", "IM", "MC", "SM", "VA", "AD", "BL", "PM",
                        "AL", "ME", "MD", "MK", "RS"}) {
    CAPTURE(c);
    CHECK_FALSE(is_eea_country(c));
    CHECK(is_sepa_country(c));
  }
  for (const char* c : {"TR", "BR", "SA", "AE", "IL", "US", "UA", "FO", "GL", "BA", "XK", "NC",
                        "PF", "WF", "TF", "BY", "RU"}) {
    CAPTURE(c);
    CHECK_FALSE(is_sepa_country(c));
  }
  CHECK(bic_country_matches_iban("DE", "DE"));
  CHECK(bic_country_matches_iban("GB", "IM"));
  CHECK(bic_country_matches_iban("FR", "RE"));
  CHECK(bic_country_matches_iban("FI", "AX"));
  CHECK_FALSE(bic_country_matches_iban("FR", "MC"));
  CHECK_FALSE(bic_country_matches_iban("GB", "IE"));
  CHECK_FALSE(bic_country_matches_iban("IT", "SM"));
}
