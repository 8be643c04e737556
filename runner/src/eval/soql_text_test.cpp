#include <catch2/catch.hpp>

#include "eval/soql_text.h"

using namespace runner;

TEST_CASE("SOQL values are escaped inside the literal the scenario quotes", "[runner][query]") {
  Variables vars = {{"email", "ada@example.org"},
                    {"evil", "x' OR LastName != '"},
                    {"path", "C:\\temp\n"},
                    {"amount", 25},
                    {"flag", true}};
  Builtins b;
  b.today = [] { return std::string("2027-03-01"); };
  Interpolator in(vars, b);
  CHECK(soql_text(in, "SELECT Id FROM Contact WHERE Email = '${email}'") ==
        "SELECT Id FROM Contact WHERE Email = 'ada@example.org'");
  // A quote in a value cannot end the literal and widen the query.
  CHECK(soql_text(in, "WHERE LastName = '${evil}'") ==
        "WHERE LastName = 'x\\' OR LastName != \\''");
  CHECK(soql_text(in, "'${path}'") == "'C:\\\\temp\\n'");
  // Numbers, booleans and dates read as SOQL writes them, unquoted.
  CHECK(soql_text(in, "Amount__c = ${amount} AND IsActive = ${flag} AND CreatedDate >= ${today}") ==
        "Amount__c = 25 AND IsActive = true AND CreatedDate >= 2027-03-01");
  CHECK(soql_text(in, "Name = '$${literal}'") == "Name = '${literal}'");
  CHECK_THROWS_WITH(soql_text(in, "Id = '${nope}'"), "'${nope}' is not defined");
}

TEST_CASE("soql_escape writes every escape the platform reads", "[runner][query]") {
  CHECK(soql_escape("plain") == "plain");
  CHECK(soql_escape("'\"\\") == "\\'\\\"\\\\");
  CHECK(soql_escape("\n\r\t\b\f") == "\\n\\r\\t\\b\\f");
}
