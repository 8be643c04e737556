// The data API's query resource over the grown SOQL: AggregateResult rows,
// semi- and anti-joins, FIELDS() and the platform's 400s for them.
#include <httplib.h>

#include <catch2/catch.hpp>

#include "domain/store/record_store.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

Response soql_query(TestOrg& t, const std::string& soql) {
  return t.get(kDataApi + "/query?q=" + httplib::detail::encode_query_param(soql));
}

// `n` contacts named `last_name` + i % groups, straight into the store.
void seed_grouped_contacts(TestOrg& t, size_t n, size_t groups) {
  Org& org = t.org();
  auto r = org.records().write<Ok>([&](Transaction& tx) -> Result<Ok> {
    for (size_t i = 0; i < n; ++i) {
      Record c;
      c.object = "Contact";
      c.id = org.ids().record_id("003");
      c.fields = {{"LastName", "Grp" + std::to_string(i % groups)},
                  {"FirstName", "N" + std::to_string(i)}};
      c.created = c.modified = org.clock().now();
      tx.put(std::move(c));
    }
    return Ok{};
  });
  REQUIRE(r.ok());
}

}  // namespace

TEST_CASE("data API: an aggregate query answers AggregateResult rows", "[http][data][query]") {
  TestOrg t(fixture("default.yaml"));
  seed_grouped_contacts(t, 30, 3);
  auto r = soql_query(t,
                      "SELECT LastName, COUNT(Id), COUNT_DISTINCT(FirstName) people FROM Contact "
                      "WHERE LastName LIKE 'Grp%' GROUP BY LastName HAVING COUNT(Id) >= 10 "
                      "ORDER BY LastName DESC");
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK(r.json["totalSize"] == 3);
  CHECK(r.json["done"] == true);
  // The body's own key order: attributes first, then the select list's.
  CHECK(r.body.find(R"("records":[{"attributes":{"type":"AggregateResult"},"LastName":"Grp2",)"
                    R"("expr0":10,"people":10},)") != std::string::npos);

  auto one = soql_query(t, "SELECT COUNT(Id) FROM Contact WHERE LastName = 'Nobody'");
  REQUIRE(one.status == 200);
  CHECK(one.json["records"][0]["expr0"] == 0);
}

TEST_CASE("data API: semi- and anti-joins", "[http][data][query]") {
  TestOrg t(fixture("default.yaml"));
  seed_grouped_contacts(t, 4, 2);
  auto in = soql_query(t,
                       "SELECT FirstName FROM Contact WHERE Id IN (SELECT Id FROM Contact WHERE "
                       "LastName = 'Grp1') ORDER BY FirstName");
  INFO(in.body);
  REQUIRE(in.status == 200);
  CHECK(in.json["totalSize"] == 2);
  CHECK(in.json["records"][0]["FirstName"] == "N1");
  auto out = soql_query(t,
                        "SELECT COUNT() FROM Contact WHERE LastName LIKE 'Grp%' AND Id NOT IN "
                        "(SELECT Id FROM Contact WHERE LastName = 'Grp1')");
  REQUIRE(out.status == 200);
  CHECK(out.json["totalSize"] == 2);
}

TEST_CASE("data API: the grown SOQL's refusals answer 400", "[http][data][query]") {
  TestOrg t(fixture("default.yaml"));
  seed_grouped_contacts(t, 2001, 2001);
  auto many = soql_query(t, "SELECT LastName, COUNT(Id) FROM Contact GROUP BY LastName");
  CHECK(many.status == 400);
  CHECK(data_error_code(many) == "EXCEEDED_ID_LIMIT");
  auto fields = soql_query(t, "SELECT FIELDS(ALL) FROM Contact");
  CHECK(fields.status == 400);
  CHECK(data_error_code(fields) == "MALFORMED_QUERY");
  CHECK(fields.json[0]["message"].get<std::string>().find(
            "The SOQL FIELDS function must have a LIMIT of at most 200") != std::string::npos);
  auto ok = soql_query(t, "SELECT FIELDS(ALL) FROM Contact LIMIT 200");
  CHECK(ok.status == 200);
}
