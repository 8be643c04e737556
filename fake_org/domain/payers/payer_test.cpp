#include "payer.h"

#include <catch2/catch.hpp>

#include "testing/domain_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

TEST_CASE("a new contact is created from CrmFields", "[payer]") {
  DomainOrg t;
  auto r = t.resolve(json{{"Contact",
                           {{"CrmFields",
                             {{"FirstName", " Ada "},
                              {"LastName", "Lovelace"},
                              {"Email", "ada@example.org"},
                              {"Donor_Level__c", "Gold"}}}}}});
  REQUIRE(r.ok());
  CHECK(r->contact_id == new_id("003", 1));
  CHECK(r->account_id.empty());
  CHECK(r->contact_created);
  CHECK_FALSE(r->account_created);
  CHECK_FALSE(r->contact_deduplicated);
  CHECK_FALSE(r->person_account);
  CHECK(r->review_reasons.empty());
  RecordPtr c = t.get(r->contact_id);
  REQUIRE(c);
  CHECK(c->object == "Contact");
  CHECK(c->fields == json{{"FirstName", "Ada"},
                          {"LastName", "Lovelace"},
                          {"Email", "ada@example.org"},
                          {"Donor_Level__c", "Gold"},
                          {"Name", "Ada Lovelace"},
                          {"IsPersonAccount", false}});
  CHECK(c->created == test_now());
  CHECK(c->modified == test_now());
}

TEST_CASE("a new contact and a new account are linked", "[payer]") {
  DomainOrg t;
  auto r = t.resolve(
      json{{"Contact", {{"CrmFields", {{"LastName", "Hopper"}}}}},
           {"Account",
            {{"CrmFields", {{"Name", "Navy Research Lab"}, {"BillingPostalCode", "22202"}}}}}});
  REQUIRE(r.ok());
  CHECK(r->account_id == new_id("001", 1));
  CHECK(r->contact_id == new_id("003", 2));
  CHECK(r->account_created);
  CHECK(r->contact_created);
  CHECK(t.get(r->account_id)->fields == json{{"Name", "Navy Research Lab"},
                                             {"BillingPostalCode", "22202"},
                                             {"RecordTypeName", "Business_Account"},
                                             {"IsPersonAccount", false}});
  CHECK(t.get(r->contact_id)->fields == json{{"LastName", "Hopper"},
                                             {"Name", "Hopper"},
                                             {"AccountId", r->account_id},
                                             {"IsPersonAccount", false}});
}

TEST_CASE("a payer needs a Contact or an Account, and a new record its required fields",
          "[payer]") {
  DomainOrg t;
  auto none = only_error(t.resolve(json::object()));
  CHECK(none.code == "010");
  CHECK(none.field == "Payer");
  CHECK(none.message == "Payer needs a Contact or an Account, each by Id or by CrmFields");

  auto missing = only_error(t.resolve(json()));
  CHECK(missing.code == "010");
  CHECK(missing.message == "Payer is required: give a Contact, an Account or both");

  auto empty_block = only_error(t.resolve(json{{"Contact", json::object()}}));
  CHECK(empty_block.code == "010");
  CHECK(empty_block.field == "Payer.Contact");
  CHECK(empty_block.message ==
        "Payer.Contact needs an Id of an existing Contact or CrmFields for a new one");

  auto no_last_name =
      only_error(t.resolve(json{{"Contact", {{"CrmFields", {{"FirstName", "Ada"}}}}}}));
  CHECK(no_last_name.code == "010");
  CHECK(no_last_name.field == "Payer.Contact.CrmFields.LastName");
  CHECK(no_last_name.message == "Payer.Contact.CrmFields.LastName is required to create a Contact");

  auto no_name = only_error(t.resolve(json{{"Account", {{"CrmFields", {{"Phone", "030 1234"}}}}}}));
  CHECK(no_name.code == "010");
  CHECK(no_name.message == "Payer.Account.CrmFields.Name is required to create an Account");

  auto not_object = only_error(t.resolve(json::array()));
  CHECK(not_object.code == "200");
  CHECK(not_object.message == "Payer must be an object, not array");
}

TEST_CASE("a payer that fails late leaves no record behind", "[payer]") {
  DomainOrg t;
  size_t accounts = t.count("Account"), contacts = t.count("Contact");
  // The account is staged before the contact turns out to lack LastName.
  auto r = t.resolve(json{{"Account", {{"CrmFields", {{"Name", "Staged Ltd"}}}}},
                          {"Contact", {{"CrmFields", {{"Email", "x@example.org"}}}}}});
  CHECK(only_error(r).code == "010");
  CHECK(t.count("Account") == accounts);
  CHECK(t.count("Contact") == contacts);
}

TEST_CASE("unknown keys, invalid flags and invalid fields are reported together", "[payer]") {
  DomainOrg t;
  auto r =
      t.resolve(json{{"AllowDedupliction", true},
                     {"AllowDeduplication", "yes"},
                     {"Contact",
                      {{"Crmfields", json::object()},
                       {"CrmFields", {{"LastName", "Doe"}, {"Email", "doe-at-example.org"}}}}}});
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.errors().size() == 4);
  CHECK(r.errors()[0].field == "Payer.AllowDedupliction");
  CHECK(r.errors()[0].message ==
        "Payer.AllowDedupliction is not a field of Payer; expected Contact, Account, "
        "AccountRecordTypeName, AllowDeduplication");
  CHECK(r.errors()[1].message == "Payer.AllowDeduplication must be true or false, got \"yes\"");
  CHECK(r.errors()[2].message ==
        "Payer.Contact.Crmfields is not a field of Payer.Contact; expected Id, CrmFields, "
        "RecordTypeName");
  CHECK(r.errors()[3].message ==
        "Payer.Contact.CrmFields.Email: Contact.Email must be an email address like "
        "name@example.org: 'doe-at-example.org' has no '@'");
  for (const auto& e : r.errors()) CHECK(e.code == "200");
}

TEST_CASE("a contact's account comes from Payer.Account, not from its CrmFields", "[payer]") {
  DomainOrg t;
  auto e = only_error(t.resolve(
      json{{"Contact", {{"CrmFields", {{"LastName", "Doe"}, {"AccountId", kGreenfield}}}}}}));
  CHECK(e.code == "200");
  CHECK(e.field == "Payer.Contact.CrmFields.AccountId");
  CHECK(e.message ==
        "Payer.Contact.CrmFields.AccountId cannot be set: the contact's account is "
        "Payer.Account (by Id or CrmFields)");
}

TEST_CASE("an existing contact by Id, as 15 or 18 characters", "[payer]") {
  DomainOrg t;
  for (const char* id : {"0037Q00000JaneD", "0037Q00000JaneDQAR", "0037Q00000JaneDqar"}) {
    CAPTURE(id);
    auto r = t.resolve(json{{"Contact", {{"Id", id}}}});
    REQUIRE(r.ok());
    CHECK(r->contact_id == kJane);
    CHECK(r->account_id == kGreenfield);  // the contact's own account
    CHECK_FALSE(r->contact_created);
    CHECK_FALSE(r->contact_deduplicated);
  }
}

TEST_CASE("an Id plus CrmFields fills only the record's empty fields", "[payer]") {
  DomainOrg t;
  auto r = t.resolve(json{{"Contact",
                           {{"Id", kJane},
                            {"CrmFields",
                             {{"FirstName", "Janet"},
                              {"MobilePhone", "+49 170 1234567"},
                              {"Donor_Level__c", "Gold"}}}}}});
  REQUIRE(r.ok());
  RecordPtr c = t.get(kJane);
  CHECK(c->text("FirstName") == "Jane");
  CHECK(c->text("Donor_Level__c") == "Silver");
  CHECK(c->text("MobilePhone") == "+49 170 1234567");
  CHECK(c->text("Name") == "Jane Doe");
  CHECK(c->modified == test_now());
}

TEST_CASE("an Id that is malformed, of another object, or of no record", "[payer]") {
  DomainOrg t;
  auto malformed = only_error(t.resolve(json{{"Contact", {{"Id", "0037Q00000JaneDXXX"}}}}));
  CHECK(malformed.code == "200");
  CHECK(malformed.kind == ErrorKind::kSpec);
  CHECK(malformed.field == "Payer.Contact.Id");
  CHECK(malformed.message ==
        "Payer.Contact.Id '0037Q00000JaneDXXX' is not a record id: expected 15 or 18 letters "
        "and digits with a valid 18-character suffix");

  auto not_text = only_error(t.resolve(json{{"Account", {{"Id", 1234}}}}));
  CHECK(not_text.message == "Payer.Account.Id must be a record id string, not number");

  auto wrong = only_error(t.resolve(json{{"Contact", {{"Id", kGreenfield}}}}));
  CHECK(wrong.code == "200");
  CHECK(wrong.kind == ErrorKind::kSpec);
  CHECK(wrong.message ==
        "Payer.Contact.Id '0017Q00000GrnTrQAJ' is an id of Account, not of Contact (Contact ids "
        "begin with 003)");

  auto unknown_prefix = only_error(t.resolve(json{{"Account", {{"Id", "a9Z5J0000000001"}}}}));
  CHECK(unknown_prefix.message ==
        "Payer.Account.Id 'a9Z5J0000000001' is an id with the prefix a9Z, not of Account "
        "(Account ids begin with 001)");

  auto missing = only_error(t.resolve(json{{"Contact", {{"Id", "0035J0000000999"}}}}));
  CHECK(missing.code == "200");
  CHECK(missing.kind == ErrorKind::kNotFound);
  CHECK(missing.field == "Payer.Contact.Id");
  CHECK(missing.message == "Payer.Contact.Id: no Contact found with id '0035J0000000999'");
}

TEST_CASE("an existing account by Id with a new contact", "[payer]") {
  DomainOrg t;
  auto r = t.resolve(json{{"Account", {{"Id", kGreenfield}}},
                          {"Contact", {{"CrmFields", {{"LastName", "Newman"}}}}}});
  REQUIRE(r.ok());
  CHECK(r->account_id == kGreenfield);
  CHECK_FALSE(r->account_created);
  CHECK(t.get(r->contact_id)->text("AccountId") == kGreenfield);
}

TEST_CASE("record types come from Account.RecordTypeName or Payer.AccountRecordTypeName",
          "[payer]") {
  DomainOrg t;
  json account = {{"CrmFields", {{"Name", "Acme"}}}};
  auto with_type = [&](const char* type) {
    json a = account;
    a["RecordTypeName"] = type;
    return a;
  };

  auto unknown = only_error(t.resolve(json{{"Account", with_type("Household")}}));
  CHECK(unknown.code == "200");
  CHECK(unknown.field == "Payer.Account.RecordTypeName");
  CHECK(unknown.message ==
        "Payer.Account.RecordTypeName 'Household' is not an Account record type of this org; "
        "use one of Business_Account, PersonAccount");

  auto outer_unknown =
      only_error(t.resolve(json{{"Account", account}, {"AccountRecordTypeName", "Org"}}));
  CHECK(outer_unknown.field == "Payer.AccountRecordTypeName");
  CHECK(outer_unknown.message ==
        "Payer.AccountRecordTypeName 'Org' is not an Account record type of this org; use one "
        "of Business_Account, PersonAccount");

  auto disagree = only_error(t.resolve(json{{"Account", with_type("Business_Account")},
                                            {"AccountRecordTypeName", "PersonAccount"}}));
  CHECK(disagree.code == "200");
  CHECK(disagree.message ==
        "Payer.Account.RecordTypeName 'Business_Account' and Payer.AccountRecordTypeName "
        "'PersonAccount' disagree; send one of them");

  auto same = t.resolve(json{{"Account", with_type("Business_Account")},
                             {"AccountRecordTypeName", "Business_Account"}});
  REQUIRE(same.ok());
  CHECK(t.get(same->account_id)->text("RecordTypeName") == "Business_Account");

  auto contact_rt = only_error(t.resolve(
      json{{"Contact", {{"RecordTypeName", "Donor"}, {"CrmFields", {{"LastName", "X"}}}}}}));
  CHECK(contact_rt.message ==
        "Payer.Contact.RecordTypeName 'Donor' is not a Contact record type of this org; this "
        "org defines no Contact record types");

  auto no_account = only_error(t.resolve(json{{"Contact", {{"CrmFields", {{"LastName", "X"}}}}},
                                              {"AccountRecordTypeName", "Business_Account"}}));
  CHECK(no_account.field == "Payer.AccountRecordTypeName");
  CHECK(no_account.message ==
        "Payer.AccountRecordTypeName 'Business_Account' names a business record type, but the "
        "payer has no Account; add Payer.Account or leave the record type out");
}

TEST_CASE("an existing account's record type must agree with the one sent", "[payer]") {
  DomainOrg t;
  auto person = only_error(
      t.resolve(json{{"Account", {{"Id", kGreenfield}, {"RecordTypeName", "PersonAccount"}}}}));
  CHECK(person.code == "200");
  CHECK(person.message ==
        "Payer.Account.RecordTypeName: Account 0017Q00000GrnTrQAJ is of record type "
        "Business_Account, not of "
        "record type PersonAccount");

  // The seed stored no record type: the one sent fills it.
  auto business =
      t.resolve(json{{"Account", {{"Id", kGreenfield}, {"RecordTypeName", "Business_Account"}}}});
  REQUIRE(business.ok());
  CHECK(t.get(kGreenfield)->text("RecordTypeName") == "Business_Account");
}

TEST_CASE("a Contact record type is stored when the org defines it", "[payer]") {
  OrgConfig config = default_config();
  config.objects.at("Contact").record_types.push_back({"Donor", "Donor", false, true});
  config.objects.at("Contact").record_types.push_back({"Volunteer", "Volunteer", false, false});
  DomainOrg t(config);
  auto r = t.resolve(
      json{{"Contact", {{"RecordTypeName", "Donor"}, {"CrmFields", {{"LastName", "Byron"}}}}}});
  REQUIRE(r.ok());
  CHECK(t.get(r->contact_id)->text("RecordTypeName") == "Donor");

  auto other = only_error(
      t.resolve(json{{"Contact", {{"Id", r->contact_id}, {"RecordTypeName", "Volunteer"}}}}));
  CHECK(other.code == "200");
  CHECK(other.field == "Payer.Contact.RecordTypeName");
  CHECK(other.message == "Payer.Contact.RecordTypeName: Contact " + r->contact_id +
                             " is of record type Donor, not Volunteer");
}
