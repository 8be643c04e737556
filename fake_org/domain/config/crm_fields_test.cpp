#include "crm_fields.h"

#include <catch2/catch.hpp>

using namespace fake_org;
using nlohmann::json;

namespace {

FieldDef field(std::string name, FieldType type) {
  FieldDef f;
  f.name = std::move(name);
  f.type = type;
  return f;
}

FieldDef text(std::string name, int length) {
  FieldDef f = field(std::move(name), FieldType::kText);
  f.length = length;
  return f;
}

FieldDef number(std::string name, FieldType type, int precision, int scale) {
  FieldDef f = field(std::move(name), type);
  f.precision = precision;
  f.scale = scale;
  return f;
}

FieldDef picklist(std::string name, FieldType type, std::vector<std::string> values) {
  FieldDef f = field(std::move(name), type);
  f.picklist_values = std::move(values);
  return f;
}

FieldDef reference(std::string name, std::string to) {
  FieldDef f = field(std::move(name), FieldType::kReference);
  f.reference_to = std::move(to);
  return f;
}

FieldDef system_field(FieldDef f) {
  f.system = true;
  return f;
}

// A Contact and an Account with one field of every type, as a fixture would declare them.
OrgConfig config() {
  OrgConfig c;
  ObjectDef contact;
  contact.api_name = "Contact";
  contact.key_prefix = "003";
  FieldDef description = field("Description", FieldType::kTextArea);
  description.length = 10;
  FieldDef email = field("Email", FieldType::kEmail);
  email.length = 80;
  FieldDef phone = field("Phone", FieldType::kPhone);
  phone.length = 40;
  contact.fields = {
      text("FirstName", 40),
      text("LastName", 80),
      picklist("Salutation", FieldType::kPicklist, {"Mr.", "Ms.", "Dr."}),
      description,
      email,
      phone,
      field("Website__c", FieldType::kUrl),
      number("Gift_Count__c", FieldType::kNumber, 4, 0),
      number("Lifetime_Giving__c", FieldType::kCurrency, 8, 2),
      number("Upgrade_Percent__c", FieldType::kPercent, 5, 2),
      field("Birthdate", FieldType::kDate),
      field("Last_Seen__c", FieldType::kDateTime),
      field("Newsletter_Opt_In__c", FieldType::kBoolean),
      picklist("Donor_Level__c", FieldType::kPicklist, {"Bronze", "Silver", "Gold"}),
      picklist("Interests__c", FieldType::kMultiPicklist, {"Music", "Sport", "Art"}),
      reference("AccountId", "Account"),
      text("MailingCity", 40),
      text("Foo__c", 20),
      system_field(text("Name", 121)),
      system_field(field("IsPersonAccount", FieldType::kBoolean)),
  };
  ObjectDef account;
  account.api_name = "Account";
  account.key_prefix = "001";
  account.fields = {
      text("Name", 255),
      field("BillingStreet", FieldType::kTextArea),
      text("VAT_Number__c", 20),
      text("FirstName", 40),
      text("LastName", 80),
      field("PersonEmail", FieldType::kEmail),
      system_field(field("IsPersonAccount", FieldType::kBoolean)),
      system_field(reference("PersonContactId", "Contact")),
  };
  c.objects["Contact"] = contact;
  c.objects["Account"] = account;
  return c;
}

const std::string kPath = "Payer.Contact.CrmFields";

CrmFieldsCheck check(const json& crm) {
  static const OrgConfig c = config();
  return check_crm_fields(crm, c.objects.at("Contact"), kPath, &c);
}

// The single error of checking {name: value}.
std::string error_of(const std::string& name, const json& value) {
  CrmFieldsCheck r = check(json{{name, value}});
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].code == "200");
  CHECK(r.errors[0].field == kPath + "." + name);
  CHECK(r.values.empty());
  return r.errors[0].message;
}

}  // namespace

TEST_CASE("valid CrmFields of every type are stored normalised", "[crmfields]") {
  CrmFieldsCheck r = check(json{
      {"firstname", "  Ada "},  // names are case-insensitive; the org's spelling is stored
      {"LastName", "Lovelace"},
      {"Description", "two\nlines"},
      {"Email", " ada@example.org "},
      {"Phone", "+44 (20) 7946-0958 ext. 12"},
      {"Website__c", "https://example.org:8443/about?x=1"},
      {"Gift_Count__c", "0012"},
      {"Lifetime_Giving__c", "123456.50"},
      {"Upgrade_Percent__c", -12.5},
      {"Birthdate", "2000-02-29"},
      {"Last_Seen__c", "2027-01-31T10:00:00+01:00"},
      {"Newsletter_Opt_In__c", true},
      {"Donor_Level__c", "Gold"},
      {"Interests__c", "Music; Art;Music"},
      {"AccountId", "0017Q00000GrnTr"},
      {"MailingCity", "10115"},
  });
  REQUIRE(r.ok());
  CHECK(r.values == json{
                        {"FirstName", "Ada"},
                        {"LastName", "Lovelace"},
                        {"Description", "two\nlines"},
                        {"Email", "ada@example.org"},
                        {"Phone", "+44 (20) 7946-0958 ext. 12"},
                        {"Website__c", "https://example.org:8443/about?x=1"},
                        {"Gift_Count__c", 12},
                        {"Lifetime_Giving__c", 123456.5},
                        {"Upgrade_Percent__c", -12.5},
                        {"Birthdate", "2000-02-29"},
                        {"Last_Seen__c", "2027-01-31T09:00:00.000Z"},
                        {"Newsletter_Opt_In__c", true},
                        {"Donor_Level__c", "Gold"},
                        {"Interests__c", "Music;Art"},
                        {"AccountId", "0017Q00000GrnTrQAJ"},
                        {"MailingCity", "10115"},
                    });
  CHECK(r.values["Gift_Count__c"].is_number_integer());
  CHECK(r.values["Lifetime_Giving__c"].is_number_float());
}

TEST_CASE("each field type refuses a wrong value with a message naming object, field and reason",
          "[crmfields]") {
  const std::string p = kPath + ".";
  CHECK(error_of("LastName", std::string(81, 'x')) ==
        p + "LastName: Contact.LastName is too long: 81 characters, at most 80 allowed");
  CHECK(error_of("Description", "eleven char") ==
        p + "Description: Contact.Description is too long: 11 characters, at most 10 allowed");
  CHECK(error_of("Email", "ada.example.org") ==
        p + "Email: Contact.Email must be an email address like name@example.org: "
            "'ada.example.org' has no '@'");
  CHECK(error_of("Email", "ada@@example.org") ==
        p + "Email: Contact.Email must be an email address like name@example.org: "
            "'ada@@example.org' has more than one '@'");
  CHECK(error_of("Email", "ada lovelace@example.org") ==
        p + "Email: Contact.Email must be an email address like name@example.org: "
            "'ada lovelace@example.org' contains a space");
  CHECK(error_of("Email", "ada@localhost") ==
        p + "Email: Contact.Email must be an email address like name@example.org: "
            "'ada@localhost' has a domain without a '.' ('localhost')");
  CHECK(error_of("Email", "ada@example.123") ==
        p + "Email: Contact.Email must be an email address like name@example.org: "
            "'ada@example.123' has a domain 'example.123' without a top-level domain such as "
            ".org");
  CHECK(error_of("Email", ".ada@example.org") ==
        p + "Email: Contact.Email must be an email address like name@example.org: "
            "'.ada@example.org' starts with a '.'");
  CHECK(error_of("Email", "@example.org") ==
        p + "Email: Contact.Email must be an email address like name@example.org: "
            "'@example.org' has nothing before the '@'");
  CHECK(error_of("Email", "ada@-example.org") ==
        p + "Email: Contact.Email must be an email address like name@example.org: "
            "'ada@-example.org' has an invalid domain '-example.org'");
  CHECK(error_of("Email", std::string(70, 'a') + "@example.org") ==
        p + "Email: Contact.Email is too long: 82 characters, at most 80 allowed");
  CHECK(error_of("Email", 42) ==
        p + "Email: Contact.Email must be an email address as a JSON string, got '42' (number)");
  CHECK(error_of("Phone", "call me") ==
        p + "Phone: Contact.Phone must be a phone number (digits, spaces, + - ( ) . / and an "
            "extension like x12): 'call me' has the character 'c'");
  CHECK(error_of("Phone", "555 x") ==
        p + "Phone: Contact.Phone must be a phone number (digits, spaces, + - ( ) . / and an "
            "extension like x12): '555 x' has an extension that is not 'x' or 'ext' and digits");
  CHECK(error_of("Phone", "12") ==
        p + "Phone: Contact.Phone must be a phone number (digits, spaces, + - ( ) . / and an "
            "extension like x12): '12' has fewer than 3 digits");
  CHECK(error_of("Phone", "0049+30") ==
        p + "Phone: Contact.Phone must be a phone number (digits, spaces, + - ( ) . / and an "
            "extension like x12): '0049+30' has a '+' that is not at the start");
  CHECK(error_of("Website__c", "www.example.org") ==
        p + "Website__c: Contact.Website__c must be an absolute http or https URL: "
            "'www.example.org' does not start with http:// or https://");
  CHECK(error_of("Website__c", "ftp://example.org") ==
        p + "Website__c: Contact.Website__c must be an absolute http or https URL: "
            "'ftp://example.org' does not start with http:// or https://");
  CHECK(error_of("Website__c", "https://exa mple.org") ==
        p + "Website__c: Contact.Website__c must be an absolute http or https URL: "
            "'https://exa mple.org' has a space");
  CHECK(error_of("Website__c", "https://example.org:99999/") ==
        p + "Website__c: Contact.Website__c must be an absolute http or https URL: "
            "'https://example.org:99999/' has an invalid port");
  CHECK(error_of("Website__c", "https:///path") ==
        p + "Website__c: Contact.Website__c must be an absolute http or https URL: "
            "'https:///path' has no valid host name");
  CHECK(
      error_of("Gift_Count__c", "12a") ==
      p + "Gift_Count__c: Contact.Gift_Count__c must be a number such as 12.50: '12a' is not one");
  CHECK(error_of("Gift_Count__c", true) ==
        p + "Gift_Count__c: Contact.Gift_Count__c must be a number or a numeric string, got "
            "'true' (boolean)");
  CHECK(error_of("Gift_Count__c", 12345) ==
        p + "Gift_Count__c: Contact.Gift_Count__c has 5 digits before the decimal point, at most "
            "4 allowed (precision 4, scale 0)");
  CHECK(error_of("Gift_Count__c", 1.5) ==
        p + "Gift_Count__c: Contact.Gift_Count__c has 1 digits after the decimal point, at most 0 "
            "allowed");
  CHECK(error_of("Lifetime_Giving__c", "10.005") ==
        p + "Lifetime_Giving__c: Contact.Lifetime_Giving__c has 3 digits after the decimal point, "
            "at most 2 allowed");
  CHECK(error_of("Lifetime_Giving__c", 1e21) ==
        p + "Lifetime_Giving__c: Contact.Lifetime_Giving__c has 22 digits before the decimal "
            "point, at most 6 allowed (precision 8, scale 2)");
  CHECK(error_of("Upgrade_Percent__c", "1,5") ==
        p + "Upgrade_Percent__c: Contact.Upgrade_Percent__c must be a number such as 12.50: '1,5' "
            "is not one");
  CHECK(error_of("Birthdate", "31.01.2027") ==
        p + "Birthdate: Contact.Birthdate must be a date in the form YYYY-MM-DD, got '31.01.2027'");
  CHECK(error_of("Birthdate", "2027-02-29") ==
        p + "Birthdate: Contact.Birthdate has '2027-02-29', which is not a calendar date");
  CHECK(error_of("Birthdate", 20270131) ==
        p + "Birthdate: Contact.Birthdate must be a date in the form YYYY-MM-DD as a JSON string, "
            "got '20270131' (number)");
  CHECK(error_of("Last_Seen__c", "2027-01-31T09:00:00") ==
        p + "Last_Seen__c: Contact.Last_Seen__c must be an ISO 8601 date and time with a zone, "
            "like 2027-01-31T09:00:00Z; got '2027-01-31T09:00:00'");
  CHECK(error_of("Newsletter_Opt_In__c", "yes") ==
        p + "Newsletter_Opt_In__c: Contact.Newsletter_Opt_In__c must be the JSON boolean true or "
            "false, got 'yes' (string)");
  CHECK(error_of("Newsletter_Opt_In__c", "true") ==
        p + "Newsletter_Opt_In__c: Contact.Newsletter_Opt_In__c must be the JSON boolean true or "
            "false, got 'true' (string)");
  CHECK(error_of("Newsletter_Opt_In__c", 1) ==
        p + "Newsletter_Opt_In__c: Contact.Newsletter_Opt_In__c must be the JSON boolean true or "
            "false, got '1' (number)");
  CHECK(error_of("MailingCity", 10115) ==
        p + "MailingCity: Contact.MailingCity must be text as a JSON string, got '10115' "
            "(number)");
  CHECK(error_of("Donor_Level__c", "Platinum") ==
        p + "Donor_Level__c: Contact.Donor_Level__c must be one of Bronze, Silver, Gold; got "
            "'Platinum'");
  CHECK(error_of("Donor_Level__c", "gold") ==
        p + "Donor_Level__c: Contact.Donor_Level__c does not have the value 'gold'; did you mean "
            "'Gold'? (values are case-sensitive)");
  CHECK(error_of("Interests__c", "Music;Chess") ==
        p + "Interests__c: Contact.Interests__c must be values of Music, Sport, Art separated by "
            "';'; 'Chess' is not one (values are case-sensitive)");
  CHECK(error_of("AccountId", "not-an-id") ==
        p + "AccountId: Contact.AccountId must be a 15- or 18-character Account record id, got "
            "'not-an-id'");
  CHECK(error_of("AccountId", "0037Q00000JaneDQAR") ==
        p + "AccountId: Contact.AccountId must be an id of Account (prefix 001): "
            "'0037Q00000JaneDQAR' has the prefix 003 (Contact)");
  CHECK(error_of("AccountId", "0017Q00000GrnTrXXX") ==
        p + "AccountId: Contact.AccountId must be a 15- or 18-character Account record id, got "
            "'0017Q00000GrnTrXXX'");
  CHECK(error_of("LastName", true) ==
        p + "LastName: Contact.LastName must be text as a JSON string, got 'true' (boolean)");
}

TEST_CASE("an object or array where a single value is expected is refused, never a crash",
          "[crmfields]") {
  const std::string p = kPath + ".";
  for (const char* name : {"LastName", "Email", "Phone", "Website__c", "Gift_Count__c",
                           "Lifetime_Giving__c", "Birthdate", "Last_Seen__c",
                           "Newsletter_Opt_In__c", "Donor_Level__c", "Interests__c", "AccountId"}) {
    CAPTURE(name);
    CHECK(error_of(name, json{{"value", "x"}}) ==
          p + name + ": Contact." + name + " must be a single value, not an object");
    CHECK(error_of(name, json::array({"Music", "Art"})) ==
          p + name + ": Contact." + name + " must be a single value, not an array");
  }
}

TEST_CASE("unknown, system and repeated fields are refused", "[crmfields]") {
  const std::string p = kPath + ".";
  CHECK(error_of("Shoe_Size__c", 42) ==
        p + "Shoe_Size__c: no field Shoe_Size__c exists on Contact in this org");
  CHECK(error_of("", "x") == p + ": no field  exists on Contact in this org");
  CHECK(error_of("Name", "Ada Lovelace") ==
        p + "Name: Contact.Name is set by the org and cannot be written");
  CHECK(error_of("IsPersonAccount", true) ==
        p + "IsPersonAccount: Contact.IsPersonAccount is set by the org and cannot be written");

  CrmFieldsCheck twice = check(json{{"Email", "a@example.org"}, {"email", "b@example.org"}});
  REQUIRE(twice.errors.size() == 1);
  CHECK(twice.errors[0].field == p + "email");
  CHECK(twice.errors[0].message == p + "email: Contact.Email is given more than once");
  CHECK(twice.values == json{{"Email", "a@example.org"}});

  // Several problems come back together, in key order.
  CrmFieldsCheck many = check(json{{"Email", "x"}, {"Birthdate", "tomorrow"}, {"Nope__c", 1}});
  REQUIRE(many.errors.size() == 3);
  CHECK(many.errors[0].field == p + "Birthdate");
  CHECK(many.errors[1].field == p + "Email");
  CHECK(many.errors[2].field == p + "Nope__c");
}

TEST_CASE("CrmFields itself must be an object, null means none", "[crmfields]") {
  CrmFieldsCheck none = check(json());
  CHECK(none.ok());
  CHECK(none.values == json::object());
  for (const json& bad : {json::array({1}), json("Email=x"), json(5)}) {
    CrmFieldsCheck r = check(bad);
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].field == kPath);
    CHECK(r.errors[0].message ==
          kPath + " must be an object mapping field API names to values, not " + bad.type_name());
  }
}

TEST_CASE("null and empty text clear a field, checkboxes become false, names are required",
          "[crmfields]") {
  CrmFieldsCheck r = check(json{{"Email", nullptr},
                                {"MailingCity", "   "},
                                {"Birthdate", ""},
                                {"Gift_Count__c", nullptr},
                                {"Newsletter_Opt_In__c", nullptr}});
  REQUIRE(r.ok());
  CHECK(r.values == json{{"Email", nullptr},
                         {"MailingCity", nullptr},
                         {"Birthdate", nullptr},
                         {"Gift_Count__c", nullptr},
                         {"Newsletter_Opt_In__c", false}});
  CHECK(error_of("LastName", nullptr) ==
        kPath + ".LastName: Contact.LastName is required and cannot be empty");
  CHECK(error_of("LastName", " ") ==
        kPath + ".LastName: Contact.LastName is required and cannot be empty");
}

TEST_CASE("numbers follow precision and scale whatever their JSON form", "[crmfields]") {
  auto value = [](const char* name, const json& v) {
    CrmFieldsCheck r = check(json{{name, v}});
    REQUIRE(r.ok());
    return r.values[name];
  };
  CHECK(value("Lifetime_Giving__c", "999999.99") == json(999999.99));
  CHECK(value("Lifetime_Giving__c", "-0.10") == json(-0.1));
  CHECK(value("Lifetime_Giving__c", "+5") == json(5));
  CHECK(value("Lifetime_Giving__c", 12.30) == json(12.3));
  CHECK(value("Lifetime_Giving__c", 1.5e3) == json(1500));
  CHECK(value("Lifetime_Giving__c", 2.5e-1) == json(0.25));
  CHECK(value("Gift_Count__c", "-0") == json(0));
  CHECK(value("Gift_Count__c", 9999u) == json(9999));
  CHECK(error_of("Lifetime_Giving__c", "1000000") ==
        kPath +
            ".Lifetime_Giving__c: Contact.Lifetime_Giving__c has 7 digits before the decimal "
            "point, at most 6 allowed (precision 8, scale 2)");
  CHECK(error_of("Lifetime_Giving__c", ".5") ==
        kPath +
            ".Lifetime_Giving__c: Contact.Lifetime_Giving__c must be a number such as 12.50: '.5' "
            "is not one");
  CHECK(error_of("Lifetime_Giving__c", "1e3") ==
        kPath +
            ".Lifetime_Giving__c: Contact.Lifetime_Giving__c must be a number such as 12.50: "
            "'1e3' is not one");
}

TEST_CASE("lengths count characters, and long values are cut at a character boundary",
          "[crmfields]") {
  std::string forty_e;
  for (int i = 0; i < 40; ++i) forty_e += "\xC3\xA9";  // é: 2 bytes, 1 character
  CrmFieldsCheck ok = check(json{{"FirstName", forty_e}});
  REQUIRE(ok.ok());
  CHECK(ok.values["FirstName"] == forty_e);

  std::string msg = error_of("FirstName", forty_e + "\xC3\xA9");
  CHECK(msg ==
        kPath + ".FirstName: Contact.FirstName is too long: 41 characters, at most 40 allowed");
  // The echoed value stops after 30 characters (60 bytes) and stays valid UTF-8.
  std::string bad = error_of("Donor_Level__c", forty_e);
  CHECK(bad == kPath +
                   ".Donor_Level__c: Contact.Donor_Level__c must be one of Bronze, Silver, "
                   "Gold; got '" +
                   forty_e.substr(0, 60) + "...'");
  CHECK_NOTHROW(json(bad).dump());
  // One ASCII letter first: byte 60 falls inside a character, so the cut moves back one byte.
  std::string shifted = error_of("Donor_Level__c", "a" + forty_e);
  CHECK(shifted == kPath +
                       ".Donor_Level__c: Contact.Donor_Level__c must be one of Bronze, "
                       "Silver, Gold; got 'a" +
                       forty_e.substr(0, 58) + "...'");
  CHECK_NOTHROW(json(shifted).dump());
}

TEST_CASE("without the org configuration a reference only needs a well-formed id", "[crmfields]") {
  OrgConfig c = config();
  CrmFieldsCheck r =
      check_crm_fields(json{{"AccountId", "0037Q00000JaneD"}}, c.objects.at("Contact"), kPath);
  REQUIRE(r.ok());
  CHECK(r.values["AccountId"] == "0037Q00000JaneDQAR");
}

TEST_CASE("person-account notation splits the Account's fields from its Contact's", "[crmfields]") {
  OrgConfig c = config();
  const std::string path = "Payer.Account.CrmFields";
  PersonAccountFields r = split_person_account_fields(json{{"FirstName", "Ada"},
                                                           {"LastName", "Lovelace"},
                                                           {"Salutation", "Ms."},
                                                           {"PersonEmail", "ada@example.org"},
                                                           {"PersonMailingCity", "London"},
                                                           {"Foo__pc", "bar"},
                                                           {"BillingStreet", "12 Downing St"},
                                                           {"VAT_Number__c", "GB123"}},
                                                      c, path);
  REQUIRE(r.ok());
  CHECK(r.contact == json{{"FirstName", "Ada"},
                          {"LastName", "Lovelace"},
                          {"Salutation", "Ms."},
                          {"Email", "ada@example.org"},
                          {"MailingCity", "London"},
                          {"Foo__c", "bar"}});
  CHECK(r.account == json{{"BillingStreet", "12 Downing St"}, {"VAT_Number__c", "GB123"}});
}

TEST_CASE("person-account notation errors name the key as sent and the field it stands for",
          "[crmfields]") {
  OrgConfig c = config();
  const std::string path = "Payer.Account.CrmFields";
  PersonAccountFields r = split_person_account_fields(json{{"Email", "ada@example.org"},
                                                           {"Name", "Ada Lovelace"},
                                                           {"PersonContactId", "0035J0000000001"},
                                                           {"PersonBirthdate", "tomorrow"},
                                                           {"PersonEmail", "ada@example.org"},
                                                           {"PersonShoeSize", 42},
                                                           {"Bar__pc", "x"},
                                                           {"personemail", "a@example.org"}},
                                                      c, path);
  REQUIRE(r.errors.size() == 7);
  const std::string p = path + ".";
  CHECK(r.errors[0].field == p + "Bar__pc");
  CHECK(r.errors[0].message == p + "Bar__pc: no field Bar__c exists on Contact in this org");
  CHECK(r.errors[1].message == p + "Email: no field Email exists on Account; a person account's "
                                   "contact fields are prefixed Person (PersonEmail)");
  CHECK(r.errors[2].message ==
        p + "Name: Account.Name of a person account is its FirstName and LastName; send those");
  CHECK(r.errors[3].field == p + "PersonBirthdate");
  CHECK(r.errors[3].message == p + "PersonBirthdate: Contact.Birthdate must be a date in the form "
                                   "YYYY-MM-DD, got 'tomorrow'");
  CHECK(r.errors[4].message ==
        p + "PersonContactId: Account.PersonContactId is set by the org and cannot be written");
  CHECK(r.errors[5].message ==
        p + "PersonShoeSize: no field PersonShoeSize exists on Account in this org");
  CHECK(r.errors[6].field == p + "personemail");
  CHECK(r.errors[6].message == p + "personemail: Contact.Email is given more than once");
  CHECK(r.contact == json{{"Email", "ada@example.org"}});
  CHECK(r.account == json::object());
  for (const auto& e : r.errors) CHECK(e.code == "200");
}

TEST_CASE("split_person_account_fields refuses CrmFields that are not an object", "[crmfields]") {
  OrgConfig c = config();
  PersonAccountFields r = split_person_account_fields(json("x"), c, "Payer.Account.CrmFields");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message ==
        "Payer.Account.CrmFields must be an object mapping field API names to values, not string");
}

TEST_CASE("a Contact custom field sent as __c on a person account gets a __pc hint",
          "[crmfields]") {
  OrgConfig c = config();
  PersonAccountFields r = split_person_account_fields(
      json{{"Foo__c", "x"}, {"VAT_Number__c", "GB1"}}, c, "Payer.Account.CrmFields");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].field == "Payer.Account.CrmFields.Foo__c");
  CHECK(r.errors[0].message ==
        "Payer.Account.CrmFields.Foo__c: no field Foo__c exists on Account; a person account's "
        "custom contact fields end in __pc (Foo__pc)");
  CHECK(r.account == json{{"VAT_Number__c", "GB1"}});
  CHECK(r.contact == json::object());
}

TEST_CASE("CrmFields judge an email address by the one rule the data API uses", "[crmfields]") {
  for (const char* address : {"a..a@test.jp", "a.@test.jp", "o'brien@example.ie"}) {
    INFO(address);
    CHECK(check(json{{"Email", address}}).ok());
  }
  CHECK(error_of("Email", "a@b") ==
        kPath +
            ".Email: Contact.Email must be an email address like name@example.org: "
            "'a@b' has a domain without a '.' ('b')");
  CHECK(error_of("Email", "\xF0\x9F\x98\x80@example.org") ==
        kPath +
            ".Email: Contact.Email must be an email address like name@example.org: "
            "'\xF0\x9F\x98\x80@example.org' has a character outside ASCII");
}
