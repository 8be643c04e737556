// The data API over parent-to-child subqueries: describe's
// childRelationships, nested records in the query resource, and a parent's
// remaining children through their own nextRecordsUrl (every answer checked
// against its contract by the test org).
#include <httplib.h>

#include <catch2/catch.hpp>

#include "domain/store/record_store.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

// The default fixture's Greenfield Community Trust (Jane Doe's account).
const std::string kFamilyAccount = "0017Q00000GrnTrQAJ";

// `n` contacts of the fixture's Greenfield account, straight into the store.
void seed_children(TestOrg& t, size_t n) {
  Org& org = t.org();
  auto r = org.records().write<Ok>([&](Transaction& tx) -> Result<Ok> {
    for (size_t i = 0; i < n; ++i) {
      Record c;
      c.object = "Contact";
      c.id = org.ids().record_id("003");
      c.fields = {{"LastName", "Child"}, {"AccountId", kFamilyAccount}};
      c.created = c.modified = org.clock().now();
      tx.put(std::move(c));
    }
    return Ok{};
  });
  REQUIRE(r.ok());
}

}  // namespace

TEST_CASE("data API: describe lists the child relationships a subquery names",
          "[http][data][query]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.get(kDataApi + "/sobjects/Account/describe");
  INFO(r.body.substr(0, 300));
  REQUIRE(r.status == 200);
  const json& rels = r.json["childRelationships"];
  REQUIRE(rels.is_array());
  json contacts;
  for (const auto& rel : rels)
    if (rel["relationshipName"] == "Contacts") contacts = rel;
  CHECK(contacts == json{{"cascadeDelete", true},
                         {"childSObject", "Contact"},
                         {"deprecatedAndHidden", false},
                         {"field", "AccountId"},
                         {"junctionIdListNames", json::array()},
                         {"junctionReferenceTo", json::array()},
                         {"relationshipName", "Contacts"},
                         {"restrictedDelete", false}});
  // Every relationship named there is one a subquery takes.
  for (const auto& rel : rels) {
    if (rel["relationshipName"].is_null()) continue;
    const std::string soql = "SELECT Id, (SELECT Id FROM " +
                             rel["relationshipName"].get<std::string>() + ") FROM Account";
    auto q = t.get(kDataApi + "/query?q=" + httplib::detail::encode_query_param(soql));
    INFO(soql << "\n" << q.body.substr(0, 300));
    CHECK(q.status == 200);
  }
}

TEST_CASE("data API: a parent's children nest in it and page by their own nextRecordsUrl",
          "[http][data][query]") {
  TestOrg t(fixture("default.yaml"));
  seed_children(t, 250);
  const std::string soql =
      "SELECT Name, (SELECT LastName FROM Contacts ORDER BY LastName) FROM Account WHERE Id = '" +
      kFamilyAccount + "'";
  httplib::Headers headers{{"Authorization", "Bearer " + t.token()},
                           {"Sforce-Query-Options", "batchSize=200"}};
  auto r = t.client().Get(
      (kDataApi + "/query?q=" + httplib::detail::encode_query_param(soql)).c_str(), headers);
  REQUIRE(r);
  INFO(r->body.substr(0, 400));
  REQUIRE(r->status == 200);
  const json body = json::parse(r->body);
  CHECK(body["totalSize"] == 1);
  CHECK(body["done"] == true);
  const json& children = body["records"][0]["Contacts"];
  CHECK(children["totalSize"] == 251);  // the fixture's Jane Doe and the 250
  CHECK(children["done"] == false);
  CHECK(children["records"].size() == 199);
  CHECK(children["records"][0]["attributes"]["type"] == "Contact");
  const std::string next = children["nextRecordsUrl"];
  CHECK(next.rfind("/services/data/v59.0/query/01g", 0) == 0);
  CHECK(next.substr(next.size() - 4) == "-199");

  auto rest = t.get(next);
  INFO(rest.body.substr(0, 300));
  REQUIRE(rest.status == 200);
  CHECK(rest.json["totalSize"] == 251);
  CHECK(rest.json["done"] == true);
  CHECK(rest.json["records"].size() == 52);

  auto bad = t.get(
      kDataApi + "/query?q=" +
      httplib::detail::encode_query_param("SELECT Id, (SELECT Id FROM Contacts) FROM Contact"));
  REQUIRE(bad.status == 400);
  CHECK(data_error_code(bad) == "INVALID_TYPE");
}
