// The REST data API's query, queryAll and query locators over the SOQL
// engine: the payment API's records, batches of 2,000, the platform's 400s.
#include <httplib.h>

#include <catch2/catch.hpp>

#include "domain/org/soql_cursors.h"
#include "domain/store/record_store.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

Response query(TestOrg& t, const std::string& soql, const std::string& resource = "query") {
  return t.get(kDataApi + "/" + resource + "?q=" + httplib::detail::encode_query_param(soql));
}

// `n` contacts named `last_name`, straight into the store.
void seed_contacts(TestOrg& t, size_t n, const std::string& last_name) {
  Org& org = t.org();
  auto r = org.records().write<Ok>([&](Transaction& tx) -> Result<Ok> {
    for (size_t i = 0; i < n; ++i) {
      Record c;
      c.object = "Contact";
      c.id = org.ids().record_id("003");
      c.fields = {{"LastName", last_name}, {"FirstName", "N" + std::to_string(i)}};
      c.created = c.modified = org.clock().now();
      tx.put(std::move(c));
    }
    return Ok{};
  });
  REQUIRE(r.ok());
}

}  // namespace

TEST_CASE("data API: an installment a payment intent created is found by query",
          "[http][data][query]") {
  TestOrg t(fixture("default.yaml"));
  CreatedIntent pi = t.create_intent(IntentBody::one_time().contact({{"LastName", "Lovelace"}}));
  auto r = query(t,
                 "SELECT Id, cpm__Amount__c, cpm__Contact__r.LastName FROM cpm__Installment__c "
                 "WHERE Id = '" +
                     pi.installment + "'");
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK(r.json["totalSize"] == 1);
  CHECK(r.json["done"] == true);
  CHECK_FALSE(r.json.contains("nextRecordsUrl"));
  const json& rec = r.json["records"][0];
  CHECK(rec["Id"] == pi.installment);
  CHECK(rec["cpm__Amount__c"] == 25);
  CHECK(rec["cpm__Contact__r"]["LastName"] == "Lovelace");
  CHECK(rec["attributes"]["url"] ==
        "/services/data/v59.0/sobjects/cpm__Installment__c/" + pi.installment);

  // The version of the path is echoed in the records' URLs.
  auto old = t.get("/services/data/v42.0/query?q=" +
                   httplib::detail::encode_query_param("SELECT Id FROM Contact LIMIT 1"));
  REQUIRE(old.status == 200);
  CHECK(old.json["records"][0]["attributes"]["url"].get<std::string>().rfind(
            "/services/data/v42.0/sobjects/Contact/", 0) == 0);
}

TEST_CASE("data API: a refused query answers 400 with the platform's errorCode",
          "[http][data][query]") {
  TestOrg t(fixture("default.yaml"));
  auto missing = t.get(kDataApi + "/query");
  CHECK(missing.status == 400);
  CHECK(data_error_code(missing) == "MALFORMED_QUERY");
  CHECK(missing.json[0].contains("message"));

  struct Case {
    const char* soql;
    const char* code;
  };
  for (const Case& c :
       {Case{"SELEC Id FROM Contact", "MALFORMED_QUERY"},
        Case{"SELECT Idd FROM Contact", "INVALID_FIELD"},
        Case{"SELECT Id FROM Nothing", "INVALID_TYPE"},
        Case{"SELECT Id FROM Contact WHERE LastName = 3", "INVALID_QUERY_FILTER_OPERATOR"}}) {
    for (const char* resource : {"query", "queryAll"}) {
      auto r = query(t, c.soql, resource);
      INFO(c.soql << ": " << r.body);
      CHECK(r.status == 400);
      CHECK(data_error_code(r) == c.code);
    }
  }
  auto locator = t.get(kDataApi + "/query/01gNOPE-2000");
  CHECK(locator.status == 400);
  CHECK(data_error_code(locator) == "INVALID_QUERY_LOCATOR");
}

TEST_CASE("data API: queryMore pages 2,100 records by nextRecordsUrl", "[http][data][query]") {
  TestOrg t(fixture("default.yaml"));
  seed_contacts(t, 2100, "Bulk");
  auto first = query(t, "SELECT Id, FirstName FROM Contact WHERE LastName = 'Bulk'");
  INFO(first.body.substr(0, 300));
  REQUIRE(first.status == 200);
  CHECK(first.json["totalSize"] == 2100);
  CHECK(first.json["done"] == false);
  CHECK(first.json["records"].size() == 2000);
  const std::string next = first.json["nextRecordsUrl"].get<std::string>();
  CHECK(next.rfind("/services/data/v59.0/query/", 0) == 0);  // the version asked

  auto second = t.get(next);
  REQUIRE(second.status == 200);
  CHECK(second.json["totalSize"] == 2100);
  CHECK(second.json["done"] == true);
  CHECK(second.json["records"].size() == 100);
  CHECK_FALSE(second.json.contains("nextRecordsUrl"));

  // A smaller batch when the client asks for one.
  httplib::Headers headers{{"Authorization", "Bearer " + t.token()},
                           {"Sforce-Query-Options", "batchSize=500"}};
  auto small = t.client().Get(
      (kDataApi + "/query?q=" +
       httplib::detail::encode_query_param("SELECT Id FROM Contact WHERE LastName = 'Bulk'"))
          .c_str(),
      headers);
  REQUIRE(small);
  CHECK(json::parse(small->body)["records"].size() == 500);
}

TEST_CASE("data API: columns=true answers the query's column metadata, not its records",
          "[http][data][query]") {
  TestOrg t(fixture("default.yaml"));
  const std::string q = httplib::detail::encode_query_param(
      "SELECT Id, LastName, Account.Name FROM Contact ORDER BY LastName");
  for (const char* resource : {"/query", "/query/", "/queryAll", "/queryAll/"}) {
    INFO(resource);
    auto r = t.get(kDataApi + resource + "?q=" + q + "&columns=true");
    INFO(r.body);
    REQUIRE(r.status == 200);
    CHECK_FALSE(r.json.contains("records"));
    CHECK(r.json["entityName"] == "Contact");
    CHECK(r.json["keyPrefix"] == "003");
    CHECK(r.json["idSelected"] == true);
    CHECK(r.json["groupBy"] == false);
    const auto& meta = r.json["columnMetadata"];
    REQUIRE(meta.size() == 3);
    CHECK(meta[1]["columnName"] == "LastName");
    CHECK(meta[2]["columnName"] == "Account");
    CHECK(meta[2]["foreignKeyName"] == "AccountId");
    CHECK(meta[2]["joinColumns"][0]["columnName"] == "Name");
  }
  // No cursor opens, however many rows the query would answer.
  CHECK(t.org().query_cursors().size() == 0);
  auto aggregate = t.get(kDataApi + "/query?columns=TRUE&q=" +
                         httplib::detail::encode_query_param("SELECT COUNT(Id) FROM Contact"));
  REQUIRE(aggregate.status == 200);
  CHECK(aggregate.json["columnMetadata"][0]["displayName"] == "count(Id)");
  // columns=false is a plain query.
  auto plain = t.get(kDataApi + "/query?columns=false&q=" + q);
  CHECK(plain.json.contains("records"));
  auto bad = t.get(kDataApi + "/query?columns=true&q=" +
                   httplib::detail::encode_query_param("SELECT Nope__c FROM Contact"));
  CHECK(bad.status == 400);
  CHECK(data_error_code(bad) == "INVALID_FIELD");
}
