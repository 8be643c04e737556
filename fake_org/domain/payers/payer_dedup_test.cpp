#include <catch2/catch.hpp>
#include <thread>

#include "payer.h"
#include "testing/domain_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {
json contact_payer(json crm, bool dedup) {
  return json{{"Contact", {{"CrmFields", std::move(crm)}}}, {"AllowDeduplication", dedup}};
}
}  // namespace

TEST_CASE("one match by email: the existing contact is used and only its empty fields filled",
          "[payer]") {
  DomainOrg t;
  size_t contacts = t.count("Contact");
  auto r = t.resolve(contact_payer({{"Email", "  JANE.DOE@example.org "},
                                    {"FirstName", "Janet"},
                                    {"LastName", "Doe"},
                                    {"MailingCity", "Hamburg"},
                                    {"MobilePhone", "+49 170 1234567"},
                                    {"Birthdate", "1990-05-17"},
                                    {"Donor_Level__c", "Gold"}},
                                   true));
  REQUIRE(r.ok());
  CHECK(r->contact_id == kJane);
  CHECK(r->contact_deduplicated);
  CHECK_FALSE(r->contact_created);
  CHECK(r->account_id == kGreenfield);  // the contact's own account
  CHECK_FALSE(r->account_deduplicated);
  CHECK(r->review_reasons.empty());
  CHECK(t.count("Contact") == contacts);
  RecordPtr c = t.get(kJane);
  CHECK(c->fields == json{{"Salutation", "Ms."},
                          {"FirstName", "Jane"},
                          {"LastName", "Doe"},
                          {"Name", "Jane Doe"},
                          {"Email", "jane.doe@example.org"},
                          {"MailingStreet", "Hauptstrasse 12"},
                          {"MailingCity", "Berlin"},
                          {"MailingPostalCode", "10115"},
                          {"MailingCountry", "Germany"},
                          {"AccountId", kGreenfield},
                          {"Donor_Level__c", "Silver"},
                          {"MobilePhone", "+49 170 1234567"},
                          {"Birthdate", "1990-05-17"}});
  CHECK(c->modified == test_now());
}

TEST_CASE("rules are tried in order, a rule applies only when every one of its fields is sent",
          "[payer]") {
  DomainOrg t;
  // No Email: rule [Email] does not apply; [FirstName, LastName, MailingPostalCode] finds
  // the one Alex Taylor with that postal code (the other has none).
  auto by_name = t.resolve(contact_payer(
      {{"FirstName", "alex"}, {"LastName", "TAYLOR"}, {"MailingPostalCode", "sw1a 1aa"}}, true));
  REQUIRE(by_name.ok());
  CHECK(by_name->contact_id == kAlex1);
  CHECK(by_name->contact_deduplicated);

  // An Email that matches nothing moves on to the next rule.
  auto next_rule = t.resolve(contact_payer({{"Email", "alex@elsewhere.example"},
                                            {"FirstName", "Alex"},
                                            {"LastName", "Taylor"},
                                            {"MailingPostalCode", "SW1A 1AA"}},
                                           true));
  REQUIRE(next_rule.ok());
  CHECK(next_rule->contact_id == kAlex1);
  // Enrichment: AlxT1 had an email, so the new one is not written.
  CHECK(t.get(kAlex1)->text("Email") == "alex.taylor@example.com");

  // Only part of a rule's fields: no rule applies, a new contact is created.
  auto partial = t.resolve(contact_payer({{"FirstName", "Alex"}, {"LastName", "Taylor"}}, true));
  REQUIRE(partial.ok());
  CHECK(partial->contact_created);
  CHECK(partial->contact_id == new_id("003", 1));
}

TEST_CASE("several matches: a new contact, and a review reason naming rule and ids", "[payer]") {
  DomainOrg t;
  auto r = t.resolve(
      contact_payer({{"Email", "alex.taylor@example.com"}, {"LastName", "Taylor"}}, true));
  REQUIRE(r.ok());
  CHECK(r->contact_created);
  CHECK_FALSE(r->contact_deduplicated);
  CHECK(r->contact_id == new_id("003", 1));
  CHECK(r->review_reasons ==
        std::vector<std::string>{
            "Contact deduplication rule [Email] matched 2 records (0037Q00000AlxT1QAJ, "
            "0037Q00000AlxT2QAJ); a new Contact was created"});
}

TEST_CASE("no match creates, AllowDeduplication false or absent always creates", "[payer]") {
  DomainOrg t;
  auto none = t.resolve(contact_payer({{"Email", "new@example.org"}, {"LastName", "New"}}, true));
  REQUIRE(none.ok());
  CHECK(none->contact_created);
  CHECK_FALSE(none->contact_deduplicated);

  json jane = {{"Email", "jane.doe@example.org"}, {"LastName", "Doe"}};
  auto off = t.resolve(contact_payer(jane, false));
  REQUIRE(off.ok());
  CHECK(off->contact_created);
  CHECK(off->contact_id != kJane);

  auto absent = t.resolve(json{{"Contact", {{"CrmFields", jane}}}});
  REQUIRE(absent.ok());
  CHECK(absent->contact_created);
  CHECK(absent->contact_id != off->contact_id);
  CHECK(t.count("Contact") == 4 + 2);
}

TEST_CASE("accounts are deduplicated by their own rules and enriched", "[payer]") {
  DomainOrg t;
  auto r = t.resolve(
      json{{"AllowDeduplication", true},
           {"Account",
            {{"CrmFields",
              {{"Name", "GREENFIELD community trust"},
               {"BillingPostalCode", "10115"},
               {"BillingCity", "Potsdam"},
               {"BillingState", "Berlin"}}}}},
           {"Contact", {{"CrmFields", {{"LastName", "Fields"}, {"Email", "f@example.org"}}}}}});
  REQUIRE(r.ok());
  CHECK(r->account_id == kGreenfield);
  CHECK(r->account_deduplicated);
  CHECK_FALSE(r->account_created);
  CHECK(r->contact_created);
  RecordPtr a = t.get(kGreenfield);
  CHECK(a->text("BillingCity") == "Berlin");
  CHECK(a->text("BillingState") == "Berlin");
  CHECK(t.get(r->contact_id)->text("AccountId") == kGreenfield);
}

TEST_CASE("several matching accounts: a new account and a review reason", "[payer]") {
  DomainOrg t;
  json acme = {{"Account", {{"CrmFields", {{"Name", "Acme"}, {"BillingPostalCode", "1000"}}}}}};
  auto first = t.resolve(acme);
  auto second = t.resolve(acme);
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  json dedup = acme;
  dedup["AllowDeduplication"] = true;
  auto r = t.resolve(dedup);
  REQUIRE(r.ok());
  CHECK(r->account_created);
  CHECK(r->account_id == new_id("001", 3));
  CHECK(r->review_reasons ==
        std::vector<std::string>{"Account deduplication rule [Name, "
                                 "BillingPostalCode] matched 2 records (" +
                                 first->account_id + ", " + second->account_id +
                                 "); a new Account was created"});
}

TEST_CASE("an existing contact keeps its account, an empty AccountId is filled", "[payer]") {
  DomainOrg t;
  // Jane belongs to Greenfield; the payer names another account.
  auto r = t.resolve(json{{"AllowDeduplication", true},
                          {"Contact", {{"CrmFields", {{"Email", "jane.doe@example.org"}}}}},
                          {"Account", {{"CrmFields", {{"Name", "Other Org"}}}}}});
  REQUIRE(r.ok());
  CHECK(r->contact_id == kJane);
  CHECK(r->account_id == new_id("001", 1));
  CHECK(t.get(kJane)->text("AccountId") == kGreenfield);

  // AlxT1 has no account: deduplication links it to the payer's.
  auto alex = t.resolve(
      json{{"AllowDeduplication", true},
           {"Contact",
            {{"CrmFields",
              {{"FirstName", "Alex"}, {"LastName", "Taylor"}, {"MailingPostalCode", "SW1A 1AA"}}}}},
           {"Account", {{"Id", kGreenfield}}}});
  REQUIRE(alex.ok());
  CHECK(alex->contact_id == kAlex1);
  CHECK(t.get(kAlex1)->text("AccountId") == kGreenfield);
}

TEST_CASE("concurrent resolve_payer calls for one new payer create exactly one contact",
          "[payer]") {
  DomainOrg t;
  size_t before = t.count("Contact");
  const json payer = contact_payer(
      {{"FirstName", "Lin"}, {"LastName", "Wu"}, {"Email", "lin.wu@example.org"}}, true);
  constexpr int kThreads = 16;
  std::vector<Result<PayerOutcome>> results(kThreads, Result<PayerOutcome>(PayerOutcome{}));
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] { results[i] = t.resolve(payer); });
  for (auto& th : threads) th.join();

  int created = 0, deduplicated = 0;
  for (const auto& r : results) {
    REQUIRE(r.ok());
    CHECK(r->contact_id == new_id("003", 1));
    created += r->contact_created;
    deduplicated += r->contact_deduplicated;
  }
  CHECK(created == 1);
  CHECK(deduplicated == kThreads - 1);
  CHECK(t.count("Contact") == before + 1);
}
