// Upsert by external id (one record and collections), collection reads, the
// replication lists (updated, deleted) and what a delete does to related
// records, with the platform's statuses and shapes.
#include <httplib.h>

#include <catch2/catch.hpp>

#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

const std::string kByDonorId = kDataApi + "/sobjects/Contact/External_Donor_Id__c/";

Response upsert_at(TestOrg& t, const std::string& path, const json& body) {
  auto r = t.send("PATCH", path, body.dump());
  INFO("PATCH " << path << " " << body.dump() << " -> " << r.body);
  return r;
}

Response query_all_of(TestOrg& t, const std::string& q) {
  auto r = t.get(kDataApi + "/queryAll?q=" + httplib::detail::encode_query_param(q));
  INFO(q << " -> " << r.body);
  REQUIRE(r.status == 200);
  return r;
}

}  // namespace

TEST_CASE("data API: upsert by external id creates, then updates, the one record",
          "[http][data][upsert]") {
  TestOrg t(fixture("default.yaml"));
  const size_t before = t.count("Contact");
  auto created = upsert_at(t, kByDonorId + "D-100", {{"LastName", "Upserted"}});
  REQUIRE(created.status == 201);
  CHECK(created.json["created"] == true);
  CHECK(created.json["success"] == true);
  CHECK(created.json["errors"] == json::array());
  const std::string id = created.json["id"];
  CHECK(t.count("Contact") == before + 1);
  CHECK(t.get(kDataApi + "/sobjects/Contact/" + id).json["External_Donor_Id__c"] == "D-100");

  // The same value, another case: the same record, updated (200 from v46.0).
  auto updated = upsert_at(t, kByDonorId + "d-100", {{"FirstName", "Again"}});
  REQUIRE(updated.status == 200);
  CHECK(updated.json ==
        json({{"id", id}, {"success", true}, {"errors", json::array()}, {"created", false}}));
  CHECK(t.get(kDataApi + "/sobjects/Contact/" + id).json["FirstName"] == "Again");
  CHECK(t.count("Contact") == before + 1);
  auto old_version = t.send("PATCH",
                            "/services/data/v45.0/sobjects/Contact/"
                            "External_Donor_Id__c/D-100",
                            R"({"Title":"Dr"})");
  CHECK(old_version.status == 204);
  CHECK(old_version.body.empty());

  // By Id: an update of the record it names.
  auto by_id = upsert_at(t, kDataApi + "/sobjects/Contact/Id/" + id, {{"Title", "Prof"}});
  CHECK(by_id.status == 200);
  CHECK(by_id.json["created"] == false);

  // Unique: a create cannot take the value again.
  auto dup = t.post(kDataApi + "/sobjects/Contact",
                    {{"LastName", "Dup"}, {"External_Donor_Id__c", "D-100"}});
  CHECK(dup.status == 400);
  CHECK(data_error_code(dup) == "DUPLICATE_VALUE");
  CHECK(t.count("Contact") == before + 1);
}

TEST_CASE("data API: a refused upsert names the platform's code and writes nothing",
          "[http][data][upsert]") {
  TestOrg t(fixture("default.yaml"));
  const size_t before = t.count("Contact");
  auto not_external = upsert_at(t, kDataApi + "/sobjects/Contact/LastName/Doe", {{"Title", "X"}});
  CHECK(not_external.status == 404);
  CHECK(data_error_code(not_external) == "NOT_FOUND");
  CHECK(not_external.json[0]["message"] ==
        "Provided external ID field does not exist or is not accessible: LastName");
  auto unknown_type = upsert_at(t, kDataApi + "/sobjects/Nope/X__c/1", {{"Title", "X"}});
  CHECK(unknown_type.status == 404);
  auto other_value =
      upsert_at(t, kByDonorId + "D-1", {{"LastName", "X"}, {"External_Donor_Id__c", "D-2"}});
  CHECK(other_value.status == 400);
  CHECK(data_error_code(other_value) == "INVALID_FIELD");
  auto missing = upsert_at(t, kByDonorId + "D-1", {{"FirstName", "NoLastName"}});
  CHECK(missing.status == 400);
  CHECK(data_error_code(missing) == "REQUIRED_FIELD_MISSING");
  auto too_long = upsert_at(t, kByDonorId + std::string(41, 'x'), {{"LastName", "X"}});
  CHECK(too_long.status == 400);
  CHECK(data_error_code(too_long) == "STRING_TOO_LONG");
  auto read_only = upsert_at(t, kDataApi + "/sobjects/User/Id/005000000000000AAA", json::object());
  CHECK(read_only.status == 400);
  CHECK(t.count("Contact") == before);
}

TEST_CASE("data API: an upsert whose value several records hold answers 300 with them",
          "[http][data][upsert]") {
  // Not unique: two records may share the value.
  TestOrg t(fixture_text(lines({
      "extends: default.yaml",
      "objects:",
      "  Campaign:",
      "    fields:",
      "      Source_Key__c: {type: text, length: 20, external_id: true}",
      "seed:",
      "  - {object: Campaign, id: 7017Q00000Dup01QAB, fields: {Name: A, Source_Key__c: K1}}",
      "  - {object: Campaign, id: 7017Q00000Dup02QAB, fields: {Name: B, Source_Key__c: k1}}",
  })));
  auto many = upsert_at(t, kDataApi + "/sobjects/Campaign/Source_Key__c/K1", {{"Name", "C"}});
  REQUIRE(many.status == 300);
  CHECK(many.json == json::array({"/services/data/v59.0/sobjects/Campaign/7017Q00000Dup01QAB",
                                  "/services/data/v59.0/sobjects/Campaign/7017Q00000Dup02QAB"}));
  CHECK(t.get(kDataApi + "/sobjects/Campaign/7017Q00000Dup01QAB").json["Name"] == "A");
  auto collection =
      upsert_at(t, kDataApi + "/composite/sobjects/Campaign/Source_Key__c",
                {{"records", {{{"attributes", {{"type", "Campaign"}}}, {"Source_Key__c", "K1"}}}}});
  REQUIRE(collection.status == 200);
  CHECK(collection.json[0]["errors"][0]["statusCode"] == "DUPLICATE_EXTERNAL_ID");
}

TEST_CASE("data API: composite upsert and retrieve by type", "[http][data][upsert]") {
  TestOrg t(fixture("default.yaml"));
  const std::string path = kDataApi + "/composite/sobjects/Account/Legacy_Account_Id__c";
  json records = json::array(
      {{{"attributes", {{"type", "Account"}}}, {"Legacy_Account_Id__c", "L-1"}, {"Name", "One"}},
       {{"attributes", {{"type", "Account"}}}, {"Name", "No key"}}});
  auto mixed = upsert_at(t, path, {{"allOrNone", false}, {"records", records}});
  REQUIRE(mixed.status == 200);
  CHECK(mixed.json[0]["success"] == true);
  CHECK(mixed.json[0]["created"] == true);
  CHECK(mixed.json[1]["success"] == false);
  CHECK(mixed.json[1]["errors"][0]["statusCode"] == "MISSING_ARGUMENT");
  const std::string one = mixed.json[0]["id"];
  records[0]["Name"] = "One again";
  auto again = upsert_at(t, path, {{"allOrNone", true}, {"records", {records[0]}}});
  CHECK(again.json[0]["created"] == false);
  CHECK(again.json[0]["id"] == one);

  auto got = t.get(kDataApi + "/composite/sobjects/Account?ids=" + one +
                   ",0017Q00000GrnTrQAJ,001000000000000AAA&fields=Name,Legacy_Account_Id__c");
  INFO(got.body);
  REQUIRE(got.status == 200);
  REQUIRE(got.json.size() == 3);
  CHECK(got.json[0]["Name"] == "One again");
  CHECK(got.json[1]["Id"] == "0017Q00000GrnTrQAJ");
  CHECK(got.json[2].is_null());
  auto posted =
      t.post(kDataApi + "/composite/sobjects/Account", {{"ids", {one}}, {"fields", {"Name"}}});
  CHECK(posted.status == 200);
  CHECK(posted.json[0]["Name"] == "One again");
  auto no_fields = t.get(kDataApi + "/composite/sobjects/Account?ids=" + one);
  CHECK(no_fields.status == 400);
  auto bad_field = t.get(kDataApi + "/composite/sobjects/Account?ids=" + one + "&fields=Nope");
  CHECK(bad_field.status == 400);
  CHECK(data_error_code(bad_field) == "INVALID_FIELD");
}

TEST_CASE("data API: deleting an account takes its contacts and clears lookups, all or none",
          "[http][data][cascade]") {
  TestOrg t(fixture("default.yaml"));
  auto make = [&](const std::string& type, const json& fields) {
    auto r = t.post(kDataApi + "/sobjects/" + type, fields);
    INFO(r.body);
    REQUIRE(r.status == 201);
    return r.json["id"].get<std::string>();
  };
  const std::string parent = make("Account", {{"Name", "Parent"}});
  const std::string child = make("Account", {{"Name", "Child"}, {"ParentId", parent}});
  const std::string c1 = make("Contact", {{"LastName", "One"}, {"AccountId", parent}});
  const std::string c2 = make("Contact", {{"LastName", "Two"}, {"AccountId", parent}});

  // allOrNone with an id that fails: nothing is deleted, cascade included.
  auto refused = t.send(
      "DELETE",
      kDataApi + "/composite/sobjects?allOrNone=true&ids=" + parent + ",001000000000000AAA", "");
  CHECK(refused.json[0]["success"] == false);
  CHECK(t.get(kDataApi + "/sobjects/Contact/" + c1).status == 200);
  CHECK(t.get(kDataApi + "/sobjects/Account/" + child).json["ParentId"] == parent);

  REQUIRE(t.send("DELETE", kDataApi + "/sobjects/Account/" + parent, "").status == 204);
  for (const auto& id : {c1, c2}) {
    auto gone = t.get(kDataApi + "/sobjects/Contact/" + id);
    CHECK(gone.status == 404);
    CHECK(data_error_code(gone) == "ENTITY_IS_DELETED");
  }
  auto kept = t.get(kDataApi + "/sobjects/Account/" + child);
  CHECK(kept.status == 200);
  CHECK(kept.json["ParentId"].is_null());
  auto all = query_all_of(
      t, "SELECT Id, IsDeleted FROM Contact WHERE AccountId = '" + parent + "' ORDER BY LastName");
  REQUIRE(all.json["totalSize"] == 2);
  CHECK(all.json["records"][0]["IsDeleted"] == true);
  CHECK(all.json["records"][1]["Id"] == c2);
}

TEST_CASE("data API: updated and deleted list a span of the org clock",
          "[http][data][replication]") {
  TestOrg t(fixture("default.yaml"));
  t.set_clock("2027-03-01T09:00:00Z");
  auto made = t.post(kDataApi + "/sobjects/Contact", {{"LastName", "New"}});
  REQUIRE(made.status == 201);
  const std::string id = made.json["id"];
  REQUIRE(t.send("DELETE", kDataApi + "/sobjects/Contact/0037Q00000JaneDQAR", "").status == 204);
  t.advance_clock("10m");
  const std::string span = "?start=2027-03-01T08%3A59%3A00%2B00%3A00&end=2027-03-01T09%3A05%3A30Z";
  auto updated = t.get(kDataApi + "/sobjects/Contact/updated" + span);
  INFO(updated.body);
  REQUIRE(updated.status == 200);
  CHECK(updated.json["ids"] == json::array({id}));
  CHECK(updated.json["latestDateCovered"] == "2027-03-01T09:05:00.000+0000");
  auto deleted = t.get(kDataApi + "/sobjects/Contact/deleted" + span);
  INFO(deleted.body);
  REQUIRE(deleted.status == 200);
  REQUIRE(deleted.json["deletedRecords"].size() == 1);
  CHECK(deleted.json["deletedRecords"][0]["id"] == "0037Q00000JaneDQAR");
  CHECK(deleted.json["deletedRecords"][0]["deletedDate"].get<std::string>().rfind(
            "2027-03-01T09:00", 0) == 0);
  CHECK(deleted.json["earliestDateAvailable"] == "2027-02-14T09:10:00.000+0000");
  // A later span has none of them.
  auto later = t.get(
      kDataApi + "/sobjects/Contact/updated?start=2027-03-01T09:06:00Z&end=2027-03-01T10:00:00Z");
  CHECK(later.json["ids"] == json::array());
  CHECK(later.json["latestDateCovered"] == "2027-03-01T09:10:00.000+0000");

  auto reversed = t.get(
      kDataApi + "/sobjects/Contact/updated?start=2027-03-01T09:05:00Z&end=2027-03-01T09:05:10Z");
  CHECK(reversed.status == 400);
  CHECK(data_error_code(reversed) == "INVALID_REPLICATION_DATE");
  auto too_old = t.get(
      kDataApi + "/sobjects/Contact/updated?start=2027-01-01T00:00:00Z&end=2027-03-01T09:05:00Z");
  CHECK(data_error_code(too_old) == "INVALID_REPLICATION_DATE");
  auto no_end = t.get(kDataApi + "/sobjects/Contact/deleted?start=2027-03-01T09:00:00Z");
  CHECK(data_error_code(no_end) == "MISSING_ARGUMENT");
  auto bad = t.get(kDataApi + "/sobjects/Contact/deleted?start=yesterday&end=today");
  CHECK(data_error_code(bad) == "INVALID_DATE_FORMAT");
}
