// The columns of a record list, from the shipped catalogue: what a person
// looks for first.
#include "admin/list_fields.h"

#include <catch2/catch.hpp>

#include <algorithm>

#include "domain/config/org_config.h"
#include "testing/fixtures.h"

using namespace fake_org;
using namespace fake_org::testing;
using Columns = std::vector<std::string>;

TEST_CASE("list columns lead with name, status, amount and dates", "[admin][dashboard]") {
  const OrgConfig config = fixture("default.yaml");
  const Columns contact = admin::list_fields(*config.object("Contact"), 8);
  REQUIRE(contact.size() == 8);
  // Contact's Name is the org's own (and empty on a record): its parts instead.
  CHECK(Columns(contact.begin(), contact.begin() + 3) == Columns{"LastName", "FirstName", "Email"});
  CHECK(std::find(contact.begin(), contact.end(), "Birthdate") != contact.end());
  CHECK(std::find(contact.begin(), contact.end(), "Name") == contact.end());
  CHECK(admin::list_fields(*config.object("Account"), 2) == Columns{"Name", "AnnualRevenue"});
  const Columns inst = admin::list_fields(*config.object("cpm__Installment__c"), 8);
  REQUIRE(inst.size() == 8);
  CHECK(Columns(inst.begin(), inst.begin() + 3) ==
        Columns{"Name", "cpm__Status__c", "cpm__Amount__c"});
  CHECK(std::find(inst.begin(), inst.end(), "cpm__Due_Date__c") != inst.end());
  // Long text never makes a column of its own accord.
  for (const auto& col : admin::list_fields(*config.object("Account"), 100))
    CHECK(col != "Description");
}

TEST_CASE("a fixture's list_fields are the columns, whole", "[admin][dashboard]") {
  const OrgConfig config = fixture_text(
      "extends: default.yaml\nobjects:\n  Contact:\n    list_fields: [Email, Phone, LastName]\n");
  CHECK(admin::list_fields(*config.object("Contact"), 2) == Columns{"Email", "Phone", "LastName"});
}
