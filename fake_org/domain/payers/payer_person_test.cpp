#include <catch2/catch.hpp>

#include "payer.h"
#include "testing/domain_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {
json grace(json extra = json::object()) {
  json crm = {{"Salutation", "Dr."},
              {"FirstName", "Grace"},
              {"LastName", "Hopper"},
              {"PersonEmail", "grace@example.org"},
              {"PersonMailingCity", "Arlington"},
              {"Donor_Level__pc", "Gold"},
              {"BillingStreet", "1 Navy Way"},
              {"Matching_Gifts__c", true}};
  crm.update(extra);
  return json{{"Account", {{"RecordTypeName", "PersonAccount"}, {"CrmFields", crm}}}};
}
}  // namespace

TEST_CASE("a person account is an Account plus its Contact, fields split by the notation",
          "[payer]") {
  DomainOrg t;
  auto r = t.resolve(grace());
  REQUIRE(r.ok());
  CHECK(r->person_account);
  CHECK(r->account_created);
  CHECK(r->contact_created);
  CHECK(r->account_id == new_id("001", 1));
  CHECK(r->contact_id == new_id("003", 2));
  CHECK(t.get(r->account_id)->fields == json{{"Name", "Grace Hopper"},
                                             {"BillingStreet", "1 Navy Way"},
                                             {"Matching_Gifts__c", true},
                                             {"RecordTypeName", "PersonAccount"},
                                             {"IsPersonAccount", true},
                                             {"PersonContactId", r->contact_id}});
  CHECK(t.get(r->contact_id)->fields == json{{"Salutation", "Dr."},
                                             {"FirstName", "Grace"},
                                             {"LastName", "Hopper"},
                                             {"Name", "Grace Hopper"},
                                             {"Email", "grace@example.org"},
                                             {"MailingCity", "Arlington"},
                                             {"Donor_Level__c", "Gold"},
                                             {"AccountId", r->account_id},
                                             {"IsPersonAccount", true}});
}

TEST_CASE("the person-account record type may come from AccountRecordTypeName", "[payer]") {
  DomainOrg t;
  json payer = grace();
  payer["Account"].erase("RecordTypeName");
  payer["AccountRecordTypeName"] = "PersonAccount";
  auto r = t.resolve(payer);
  REQUIRE(r.ok());
  CHECK(r->person_account);
  CHECK(t.get(r->contact_id)->text("Email") == "grace@example.org");

  // Without any record type the Account's default (Business_Account) applies, and
  // PersonEmail is then an Account field of its own, as the catalog declares it.
  json business = grace();
  business["Account"].erase("RecordTypeName");
  business["Account"]["CrmFields"].erase("Donor_Level__pc");
  business["Account"]["CrmFields"]["Name"] = "Hopper Consulting";
  auto b = t.resolve(business);
  REQUIRE(b.ok());
  CHECK_FALSE(b->person_account);
  CHECK(b->contact_id.empty());
  CHECK(t.get(b->account_id)->text("PersonEmail") == "grace@example.org");
}

TEST_CASE("a customised person-account record type is stored by its name", "[payer]") {
  OrgConfig config = default_config();
  config.objects.at("Account").record_types.push_back(
      {"Donor_Person", "Donor (person)", true, false});
  DomainOrg t(config);
  json payer = grace();
  payer["Account"]["RecordTypeName"] = "Donor_Person";
  auto r = t.resolve(payer);
  REQUIRE(r.ok());
  CHECK(r->person_account);
  CHECK(t.get(r->account_id)->text("RecordTypeName") == "Donor_Person");
}

TEST_CASE("a Contact block with a person-account record type makes a person account", "[payer]") {
  DomainOrg t;
  auto r = t.resolve(
      json{{"AccountRecordTypeName", "PersonAccount"},
           {"Contact", {{"CrmFields", {{"LastName", "Lamarr"}, {"Email", "hedy@example.org"}}}}}});
  REQUIRE(r.ok());
  CHECK(r->person_account);
  CHECK(t.get(r->account_id)->fields == json{{"Name", "Lamarr"},
                                             {"RecordTypeName", "PersonAccount"},
                                             {"IsPersonAccount", true},
                                             {"PersonContactId", r->contact_id}});
  CHECK(t.get(r->contact_id)->text("Email") == "hedy@example.org");

  auto not_person = only_error(
      t.resolve(json{{"AccountRecordTypeName", "PersonAccount"}, {"Contact", {{"Id", kJane}}}}));
  CHECK(not_person.message ==
        "Payer.Contact.Id: Contact 0037Q00000JaneDQAR is not a person account's contact, but "
        "Payer.AccountRecordTypeName is the person-account record type PersonAccount");
}

TEST_CASE("a person account with a separate Contact block is refused", "[payer]") {
  DomainOrg t;
  json payer = grace();
  payer["Contact"] = {{"CrmFields", {{"LastName", "Other"}}}};
  auto e = only_error(t.resolve(payer));
  CHECK(e.code == "200");
  CHECK(e.field == "Payer.Contact");
  CHECK(e.message ==
        "Payer.Contact: a person account carries its own contact: send the person's fields in "
        "Payer.Account.CrmFields (FirstName, LastName, PersonEmail, ...) and leave out "
        "Payer.Contact");
}

TEST_CASE("person-account errors: notation, required LastName", "[payer]") {
  DomainOrg t;
  auto no_last = only_error(t.resolve(json{
      {"Account",
       {{"RecordTypeName", "PersonAccount"}, {"CrmFields", {{"PersonEmail", "a@example.org"}}}}}}));
  CHECK(no_last.code == "010");
  CHECK(no_last.field == "Payer.Account.CrmFields.LastName");
  CHECK(no_last.message ==
        "Payer.Account.CrmFields.LastName is required to create a person account");

  auto bad = t.resolve(grace({{"Email", "x@example.org"}, {"PersonEmail", "nope"}}));
  REQUIRE_FALSE(bad.ok());
  REQUIRE(bad.errors().size() == 2);
  CHECK(bad.errors()[0].message ==
        "Payer.Account.CrmFields.Email: no field Email exists on Account; a person account's "
        "contact fields are prefixed Person (PersonEmail)");
  CHECK(bad.errors()[1].message ==
        "Payer.Account.CrmFields.PersonEmail: Contact.Email must be an email address like "
        "name@example.org: 'nope' has no '@'");

  auto account_id = only_error(t.resolve(grace({{"PersonAccountId", kGreenfield}})));
  CHECK(account_id.message ==
        "Payer.Account.CrmFields.PersonAccountId cannot be set: a person's account is the person "
        "account itself");
}

TEST_CASE("person accounts deduplicate on their contact and use its account", "[payer]") {
  DomainOrg t;
  auto first = t.resolve(grace());
  REQUIRE(first.ok());
  json again = grace({{"PersonMobilePhone", "+1 703 555 0100"}, {"BillingCity", "Arlington"}});
  again["AllowDeduplication"] = true;
  again["Account"]["CrmFields"]["PersonEmail"] = "GRACE@example.org";
  auto r = t.resolve(again);
  REQUIRE(r.ok());
  CHECK(r->person_account);
  CHECK(r->contact_id == first->contact_id);
  CHECK(r->account_id == first->account_id);
  CHECK(r->contact_deduplicated);
  CHECK(r->account_deduplicated);
  CHECK_FALSE(r->contact_created);
  CHECK_FALSE(r->account_created);
  CHECK(t.get(r->contact_id)->text("MobilePhone") == "+1 703 555 0100");
  CHECK(t.get(r->contact_id)->text("Email") == "grace@example.org");
  CHECK(t.get(r->account_id)->text("BillingCity") == "Arlington");
}

TEST_CASE("a person account never merges into a business contact", "[payer]") {
  DomainOrg t;
  json payer = {{"AllowDeduplication", true},
                {"Account",
                 {{"RecordTypeName", "PersonAccount"},
                  {"CrmFields", {{"LastName", "Doe"}, {"PersonEmail", "jane.doe@example.org"}}}}}};
  auto r = t.resolve(payer);
  REQUIRE(r.ok());
  CHECK(r->contact_created);
  CHECK(r->account_created);
  CHECK(r->contact_id != kJane);
  CHECK(r->review_reasons.empty());
}

TEST_CASE("an existing person account by Id brings its contact", "[payer]") {
  DomainOrg t;
  auto created = t.resolve(grace());
  REQUIRE(created.ok());
  auto by_account = t.resolve(json{{"Account", {{"Id", created->account_id}}}});
  REQUIRE(by_account.ok());
  CHECK(by_account->person_account);
  CHECK(by_account->contact_id == created->contact_id);

  auto with_contact = only_error(
      t.resolve(json{{"Account", {{"Id", created->account_id}}}, {"Contact", {{"Id", kJane}}}}));
  CHECK(with_contact.field == "Payer.Contact");

  // A plain Contact payer that deduplicates onto a person's contact pays as that person.
  auto by_email = t.resolve(json{{"AllowDeduplication", true},
                                 {"Contact", {{"CrmFields", {{"Email", "grace@example.org"}}}}}});
  REQUIRE(by_email.ok());
  CHECK(by_email->contact_id == created->contact_id);
  CHECK(by_email->account_id == created->account_id);
  CHECK(by_email->person_account);
}

TEST_CASE("household orgs give a contact without account a '<LastName> Household'", "[payer]") {
  OrgConfig config = default_config();
  config.org.contact_without_account = "household";
  config.objects.at("Account").record_types.push_back(
      {"Household_Account", "Household", false, false});
  DomainOrg t(config);

  auto r = t.resolve(json{{"Contact", {{"CrmFields", {{"LastName", "Lovelace"}}}}}});
  REQUIRE(r.ok());
  CHECK(r->contact_id == new_id("003", 1));
  CHECK(r->account_id == new_id("001", 2));
  CHECK(r->account_created);
  CHECK(t.get(r->account_id)->fields == json{{"Name", "Lovelace Household"},
                                             {"RecordTypeName", "Business_Account"},
                                             {"IsPersonAccount", false}});
  CHECK(t.get(r->contact_id)->text("AccountId") == r->account_id);

  auto typed = t.resolve(json{{"AccountRecordTypeName", "Household_Account"},
                              {"Contact", {{"CrmFields", {{"LastName", "Byron"}}}}}});
  REQUIRE(typed.ok());
  CHECK(t.get(typed->account_id)->text("RecordTypeName") == "Household_Account");
  CHECK(t.get(typed->account_id)->text("Name") == "Byron Household");

  // A deduplicated contact without account gets one too; one with an account keeps it.
  auto alex = t.resolve(json{
      {"AllowDeduplication", true},
      {"Contact",
       {{"CrmFields",
         {{"FirstName", "Alex"}, {"LastName", "Taylor"}, {"MailingPostalCode", "SW1A 1AA"}}}}}});
  REQUIRE(alex.ok());
  CHECK(alex->contact_id == kAlex1);
  CHECK(alex->account_created);
  CHECK(t.get(alex->account_id)->text("Name") == "Taylor Household");
  CHECK(t.get(kAlex1)->text("AccountId") == alex->account_id);

  size_t accounts = t.count("Account");
  auto jane = t.resolve(json{{"Contact", {{"Id", kJane}}}});
  REQUIRE(jane.ok());
  CHECK(jane->account_id == kGreenfield);
  CHECK_FALSE(jane->account_created);
  CHECK(t.count("Account") == accounts);
}
