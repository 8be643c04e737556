// query?columns=true: the column metadata of a query, in the platform's
// shape, without running it.
#include <catch2/catch.hpp>

#include "domain/org/soql_cursors.h"
#include "testing/soql_records.h"

using namespace fake_org;
using namespace fake_org::testing;
using ojson = nlohmann::ordered_json;

namespace {

ojson columns_of(SoqlOrg& o, const std::string& soql) {
  auto r = soql::query_columns(o.org(), soql);
  INFO(soql << ": " << (r ? std::string() : r.error().message));
  REQUIRE(r);
  return *r;
}

// A column entry with every key the platform sends.
ojson expected_column(const char* name, const char* apex, bool text, bool writable,
                      bool custom = false) {
  return {{"aggregate", false},
          {"apexType", apex ? ojson(apex) : ojson(nullptr)},
          {"booleanType", apex && std::string(apex) == "Boolean"},
          {"columnName", name},
          {"custom", custom},
          {"displayName", name},
          {"foreignKeyName", nullptr},
          {"insertable", writable},
          {"joinColumns", ojson::array()},
          {"numberType", false},
          {"textType", text},
          {"updatable", writable}};
}

}  // namespace

TEST_CASE("query columns: plain fields, in the platform's shape and order", "[domain][soql]") {
  SoqlOrg o;
  const ojson c = columns_of(o, "SELECT id, lastname, Email FROM Contact");
  CHECK(c.dump() == ojson{{"columnMetadata",
                           {expected_column("Id", "Id", false, false),
                            expected_column("LastName", "String", true, true),
                            expected_column("Email", "String", true, true)}},
                          {"entityName", "Contact"},
                          {"groupBy", false},
                          {"idSelected", true},
                          {"keyPrefix", "003"}}
                        .dump());
  const ojson no_id = columns_of(o, "SELECT LastName FROM Contact");
  CHECK(no_id["idSelected"] == false);
  // Nothing ran: no cursor opened, whatever the query would answer.
  CHECK(o.org().query_cursors().size() == 0);
}

TEST_CASE("query columns: relationship paths nest as joinColumns", "[domain][soql]") {
  SoqlOrg o;
  const ojson c = columns_of(o, "SELECT Id, Account.Name, Account.Id FROM Contact");
  const ojson& meta = c["columnMetadata"];
  REQUIRE(meta.size() == 2);  // two paths through Account share its entry
  const ojson& account = meta[1];
  CHECK(account["columnName"] == "Account");
  CHECK(account["displayName"] == "Account");
  CHECK(account["foreignKeyName"] == "AccountId");
  CHECK(account["apexType"].is_null());
  CHECK(account["aggregate"] == false);
  REQUIRE(account["joinColumns"].size() == 2);
  CHECK(account["joinColumns"][0]["columnName"] == "Name");
  CHECK(account["joinColumns"][0]["textType"] == true);
  CHECK(account["joinColumns"][1]["columnName"] == "Id");

  const ojson custom =
      columns_of(o, "SELECT cpm__Contact__r.Account.Name, cpm__Amount__c FROM cpm__Installment__c");
  const ojson& via = custom["columnMetadata"][0];
  CHECK(via["columnName"] == "cpm__Contact__r");
  CHECK(via["custom"] == true);
  CHECK(via["foreignKeyName"] == "cpm__Contact__c");
  CHECK(via["joinColumns"][0]["columnName"] == "Account");
  CHECK(via["joinColumns"][0]["joinColumns"][0]["columnName"] == "Name");
  const ojson& amount = custom["columnMetadata"][1];
  CHECK(amount["apexType"] == "Double");
  CHECK(amount["numberType"] == true);
  CHECK(amount["custom"] == true);
  CHECK(amount["insertable"] == false);  // set by the package, as describe says
  CHECK(custom["entityName"] == "cpm__Installment__c");
}

TEST_CASE("query columns: aggregates as exprN or their alias, COUNT() as none", "[domain][soql]") {
  SoqlOrg o;
  const ojson c =
      columns_of(o, "SELECT LastName, COUNT(Id), MAX(Email) top FROM Contact GROUP BY LastName");
  CHECK(c["groupBy"] == true);
  CHECK(c["idSelected"] == false);
  const ojson& meta = c["columnMetadata"];
  REQUIRE(meta.size() == 3);
  CHECK(meta[0]["columnName"] == "LastName");
  CHECK(meta[0]["aggregate"] == false);
  CHECK(meta[1]["columnName"] == "expr0");
  CHECK(meta[1]["displayName"] == "count(Id)");
  CHECK(meta[1]["aggregate"] == true);
  CHECK(meta[1]["numberType"] == true);
  CHECK(meta[1]["apexType"].is_null());
  CHECK(meta[2]["columnName"] == "top");
  CHECK(meta[2]["displayName"] == "max(Email)");
  CHECK(meta[2]["numberType"] == false);

  const ojson whole = columns_of(o, "SELECT COUNT(Id) FROM Contact");
  CHECK(whole["groupBy"] == false);
  CHECK(whole["columnMetadata"][0]["columnName"] == "expr0");

  const ojson count = columns_of(o, "SELECT COUNT() FROM Contact");
  CHECK(count["columnMetadata"] == ojson::array());
  CHECK(count["entityName"] == "Contact");
}

TEST_CASE("query columns: a query the engine refuses is refused alike", "[domain][soql]") {
  SoqlOrg o;
  auto bad = soql::query_columns(o.org(), "SELECT Nope__c FROM Contact");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().error_code == "INVALID_FIELD");
  auto malformed = soql::query_columns(o.org(), "SELECT FROM Contact");
  REQUIRE_FALSE(malformed);
  CHECK(malformed.error().error_code == "MALFORMED_QUERY");
}
