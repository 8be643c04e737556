#include "sobject_write.h"

#include <catch2/catch.hpp>

#include "composite_sobjects.h"
#include "domain/soql/soql.h"
#include "domain/store/record_store.h"
#include "sobject_read.h"
#include "testing/domain_org.h"

using namespace fake_org;
using namespace fake_org::data;
using nlohmann::json;

TEST_CASE("sobject writes: create, update, soft delete, indexes follow", "[domain][data]") {
  testing::DomainOrg t;
  Org& org = *t.org;
  const size_t before = t.count("Contact");
  auto id = create_sobject(org, "Contact", {{"LastName", "Doe"}, {"Email", "doe@example.org"}});
  REQUIRE(id.ok());
  CHECK(t.count("Contact") == before + 1);
  CHECK(t.get(*id)->created == testing::test_now());
  auto by_email = [&] {
    return org.records().read(
        [&](const RecordStore& s) { return s.find("dedup:Contact:0", {"DOE@example.org"}); });
  };
  CHECK(by_email() == std::vector<std::string>{*id});

  REQUIRE(update_sobject(org, "Contact", id->substr(0, 15), {{"FirstName", "Jo"}}).ok());
  CHECK(t.get(*id)->text("FirstName") == "Jo");
  auto refused = update_sobject(org, "Contact", *id, {{"FirstName", "Al"}, {"Nope", 1}});
  REQUIRE_FALSE(refused.ok());
  CHECK(t.get(*id)->text("FirstName") == "Jo");

  REQUIRE(delete_sobject(org, "Contact", *id).ok());
  CHECK(t.get(*id)->deleted);
  CHECK(by_email().empty());
  CHECK(read_sobject(org, "Contact", *id, {}, "59.0").errors().front().code == "ENTITY_IS_DELETED");
  CHECK(delete_sobject(org, "Contact", *id).errors().front().code == "ENTITY_IS_DELETED");
  CHECK(delete_sobject(org, "Account", *id).errors().front().code == "NOT_FOUND");
  CHECK(create_sobject(org, "Nothing", json::object()).errors().front().code == "NOT_FOUND");

  const std::string soql = "SELECT Id FROM Contact WHERE Email = 'doe@example.org'";
  CHECK(soql::run_query(org, soql)->total_size == 0);
  soql::QueryOptions all;
  all.include_deleted = true;
  CHECK(soql::run_query(org, soql, all)->total_size == 1);
}

TEST_CASE("sobject collections: allOrNone stores nothing when one record fails", "[domain][data]") {
  testing::DomainOrg t;
  const size_t before = t.count("Contact");
  json body = {{"allOrNone", true},
               {"records",
                {{{"attributes", {{"type", "Contact"}}}, {"LastName", "A"}},
                 {{"attributes", {{"type", "Contact"}}}, {"FirstName", "B"}}}}};
  auto results = save_collection(*t.org, CollectionOp::kCreate, body);
  REQUIRE(results.ok());
  CHECK(t.count("Contact") == before);
  CHECK((*results)[0].errors.front().code == "ALL_OR_NONE_OPERATION_ROLLED_BACK");
  CHECK((*results)[1].errors.front().code == "REQUIRED_FIELD_MISSING");

  body["allOrNone"] = false;
  results = save_collection(*t.org, CollectionOp::kCreate, body);
  CHECK(t.count("Contact") == before + 1);
  CHECK((*results)[0].success);
  CHECK(save_results_json(*results)[1]["id"].is_null());
}
