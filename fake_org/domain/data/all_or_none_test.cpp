// One transaction for several domain writes: all of them or none, and the
// reads in between see what was staged.
#include "all_or_none.h"

#include <catch2/catch.hpp>

#include "composite_sobjects.h"
#include "composite_tree.h"
#include "domain/soql/soql.h"
#include "sobject_read.h"
#include "sobject_write.h"
#include "testing/domain_org.h"

using namespace fake_org;
using namespace fake_org::data;
using nlohmann::json;

TEST_CASE("all or none: joined writes commit together or not at all", "[domain][data][composite]") {
  testing::DomainOrg t;
  Org& org = *t.org;
  const size_t before = t.count("Account");
  std::string staged;
  all_or_none(org, [&] {
    auto id = create_sobject(org, "Account", {{"Name", "Staged Co"}});
    REQUIRE(id.ok());
    staged = *id;
    // Reads on this thread see the staged record: by id and by a query.
    CHECK(read_sobject(org, "Account", staged, {"Name"}, "59.0").ok());
    auto q = soql::run_query(org, "SELECT Id FROM Account WHERE Name = 'Staged Co'");
    REQUIRE(q.ok());
    CHECK(q->total_size == 1);
    // A failed joined write leaves the earlier ones staged.
    CHECK_FALSE(create_sobject(org, "Contact", {{"FirstName", "No last name"}}).ok());
    return false;
  });
  CHECK(t.count("Account") == before);
  CHECK_FALSE(t.get(staged));

  all_or_none(org, [&] {
    auto a = create_sobject(org, "Account", {{"Name", "Kept Co"}});
    REQUIRE(a.ok());
    auto c = create_sobject(org, "Contact", {{"LastName", "Kept"}, {"AccountId", *a}});
    CHECK(c.ok());
    // A collection with one refused record keeps the others staged.
    auto saved = save_collection(
        org, CollectionOp::kCreate,
        {{"records",
          {{{"attributes", {{"type", "Account"}}}, {"Name", "Kept Two"}},
           {{"attributes", {{"type", "Account"}}}, {"Name", std::string(300, 'x')}}}}});
    REQUIRE(saved.ok());
    CHECK((*saved)[0].success);
    CHECK_FALSE((*saved)[1].success);
    return true;
  });
  CHECK(t.count("Account") == before + 2);
}

TEST_CASE("composite tree: children by relationship name, refused trees write nothing",
          "[domain][data][composite]") {
  testing::DomainOrg t;
  Org& org = *t.org;
  const size_t accounts = t.count("Account"), contacts = t.count("Contact");
  auto contact = [](const std::string& ref, json fields) {
    fields["attributes"] = {{"type", "Contact"}, {"referenceId", ref}};
    return fields;
  };
  json tree = {{"records",
                {{{"attributes", {{"type", "Account"}, {"referenceId", "a"}}},
                  {"Name", "Tree Co"},
                  {"contacts", {{"records", {contact("c", {{"LastName", "Leaf"}})}}}}}}}};
  auto saved = save_tree(org, "Account", tree);
  REQUIRE(saved.ok());
  REQUIRE_FALSE(saved->has_errors);
  REQUIRE(saved->results.size() == 2);
  CHECK(t.get(saved->results[1].id)->text("AccountId") == saved->results[0].id);
  CHECK(t.count("Contact") == contacts + 1);

  tree["records"][0]["contacts"]["records"].push_back(contact("d", {{"FirstName", "X"}}));
  auto refused = save_tree(org, "Account", tree);
  REQUIRE(refused.ok());
  CHECK(refused->has_errors);
  REQUIRE(refused->results.size() == 1);
  CHECK(refused->results[0].reference_id == "d");
  CHECK(t.count("Account") == accounts + 1);
  CHECK(tree_outcome_json(*refused)["results"][0]["errors"][0]["statusCode"] ==
        "REQUIRED_FIELD_MISSING");
  CHECK(save_tree(org, "Nope", tree).errors().front().code == "NOT_FOUND");
  CHECK(save_tree(org, "Account", json::array()).errors().front().code == "JSON_PARSER_ERROR");
}
