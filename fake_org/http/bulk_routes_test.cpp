// Bulk API 2.0 through HTTP: an ingest job as the platform's CLI drives it
// (create, PUT the CSV, close, poll, read the three result files), a query
// job's pages and headers, the admin API's speed, and the errors.
#include <httplib.h>

#include <catch2/catch.hpp>

#include "testing/eventually.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

const std::string kBulkJobsPath = "/services/data/v59.0/jobs/";

httplib::Result bulk_put_csv(TestOrg& t, const std::string& path, const std::string& csv) {
  httplib::Headers headers{{"Authorization", "Bearer " + t.token()}};
  return t.client().Put(path.c_str(), headers, csv, "text/csv");
}

// Polls the job until it is finished; its last JobInfo.
json bulk_wait_for(TestOrg& t, const std::string& kind, const std::string& id) {
  json info;
  REQUIRE(eventually([&] {
    info = t.get(kBulkJobsPath + kind + "/" + id).json;
    const std::string s = info.value("state", "");
    return s == "JobComplete" || s == "Failed" || s == "Aborted";
  }));
  return info;
}

std::string bulk_error_code_of(const Response& r) {
  return r.json.at(0).at("errorCode");
}

}  // namespace

TEST_CASE("bulk: an ingest job as the CLI drives it, bad rows in failedResults", "[http][bulk]") {
  TestOrg t(fixture("default.yaml"));
  const size_t before = t.count("Contact");
  auto made = t.post(kBulkJobsPath + "ingest", {{"object", "Contact"},
                                                {"operation", "insert"},
                                                {"lineEnding", "LF"},
                                                {"columnDelimiter", "COMMA"}});
  INFO(made.body);
  REQUIRE(made.status == 200);
  CHECK(made.json["state"] == "Open");
  CHECK(made.json["jobType"] == "V2Ingest");
  CHECK(made.json["apiVersion"] == 59.0);
  const std::string id = made.json["id"];
  CHECK(id.rfind("750", 0) == 0);
  CHECK(made.json["contentUrl"] == "services/data/v59.0/jobs/ingest/" + id + "/batches");

  std::string csv = "LastName,Email\n";
  for (int i = 0; i < 25; ++i)
    csv += "Row" + std::to_string(i) + ",r" + std::to_string(i) + "@example.org\n";
  csv += ",blank@example.org\nBad,not-an-email\n";
  auto put = bulk_put_csv(t, kBulkJobsPath + "ingest/" + id + "/batches", csv);
  REQUIRE(put);
  CHECK(put->status == 201);
  CHECK(put->body.empty());
  auto closed =
      t.send("PATCH", kBulkJobsPath + "ingest/" + id, json{{"state", "UploadComplete"}}.dump());
  REQUIRE(closed.status == 200);
  CHECK(closed.json["state"] == "UploadComplete");

  const json info = bulk_wait_for(t, "ingest", id);
  CHECK(info["state"] == "JobComplete");
  CHECK(info["numberRecordsProcessed"] == 27);
  CHECK(info["numberRecordsFailed"] == 2);
  CHECK(info["retries"] == 0);
  CHECK(t.count("Contact") == before + 25);
  auto ok = t.get(kBulkJobsPath + "ingest/" + id + "/successfulResults");
  CHECK(ok.status == 200);
  CHECK(ok.headers.find("Content-Type")->second.rfind("text/csv", 0) == 0);
  CHECK(std::count(ok.body.begin(), ok.body.end(), '\n') == 26);
  auto failed = t.get(kBulkJobsPath + "ingest/" + id + "/failedResults");
  CHECK(failed.body.rfind("\"sf__Id\",\"sf__Error\",LastName,Email\n", 0) == 0);
  CHECK(failed.body.find("REQUIRED_FIELD_MISSING:") != std::string::npos);
  CHECK(failed.body.find("INVALID_EMAIL_ADDRESS:") != std::string::npos);
  CHECK(t.get(kBulkJobsPath + "ingest/" + id + "/unprocessedrecords").body == "LastName,Email\n");

  auto listed = t.get(kBulkJobsPath + "ingest");
  CHECK(listed.json["done"] == true);
  CHECK(listed.json["records"].size() == 1);
  CHECK(t.send("DELETE", kBulkJobsPath + "ingest/" + id, "").status == 204);
  CHECK(t.get(kBulkJobsPath + "ingest/" + id).status == 404);
}

TEST_CASE("bulk: a query job's CSV pages and headers", "[http][bulk]") {
  TestOrg t(fixture("default.yaml"));
  auto made =
      t.post(kBulkJobsPath + "query",
             {{"operation", "query"}, {"query", "SELECT Id, LastName, Account.Name FROM Contact"}});
  INFO(made.body);
  REQUIRE(made.status == 200);
  CHECK(made.json["jobType"] == "V2Query");
  const std::string id = made.json["id"];
  const json info = bulk_wait_for(t, "query", id);
  REQUIRE(info["state"] == "JobComplete");
  const size_t rows = info["numberRecordsProcessed"];
  REQUIRE(rows >= 2);
  auto first = t.get(kBulkJobsPath + "query/" + id + "/results?maxRecords=1");
  CHECK(first.status == 200);
  CHECK(first.body.rfind("\"Id\",\"LastName\",\"Account.Name\"\n", 0) == 0);
  CHECK(first.headers.find("Sforce-NumberOfRecords")->second == "1");
  const std::string locator = first.headers.find("Sforce-Locator")->second;
  CHECK(locator != "null");
  auto rest = t.get(kBulkJobsPath + "query/" + id + "/results?locator=" + locator);
  CHECK(rest.headers.find("Sforce-Locator")->second == "null");
  CHECK(rest.headers.find("Sforce-NumberOfRecords")->second == std::to_string(rows - 1));
  auto counted = t.post(kBulkJobsPath + "query", {{"query", "SELECT COUNT() FROM Contact"}});
  CHECK(counted.status == 400);
  CHECK(bulk_error_code_of(counted) == "API_ERROR");
}

TEST_CASE("bulk: the admin API's speed holds a job InProgress on the org clock", "[http][bulk]") {
  TestOrg t(fixture("default.yaml"));
  CHECK(t.post("/__admin/bulk?processingTime=10m", json::object()).status == 200);
  CHECK(t.get("/__admin/bulk").json["processingTimeMs"] == 600000);
  CHECK(t.post("/__admin/bulk?processingTime=soon", json::object()).status == 400);
  auto made = t.post(kBulkJobsPath + "query", {{"query", "SELECT Id FROM Contact"}});
  const std::string id = made.json["id"];
  t.embedded().bulk_jobs().wait_idle();
  CHECK(t.get(kBulkJobsPath + "query/" + id).json["state"] == "InProgress");
  auto early = t.get(kBulkJobsPath + "query/" + id + "/results");
  CHECK(early.status == 412);
  CHECK(bulk_error_code_of(early) == "JOB_NOT_COMPLETE");
  t.advance_clock("10m");
  CHECK(t.get(kBulkJobsPath + "query/" + id).json["state"] == "JobComplete");
}

TEST_CASE("bulk: errors are the platform's list", "[http][bulk]") {
  TestOrg t(fixture("default.yaml"));
  auto unknown = t.post(kBulkJobsPath + "ingest", {{"object", "Nope"}, {"operation", "insert"}});
  CHECK(unknown.status == 400);
  CHECK(bulk_error_code_of(unknown) == "INVALIDJOB");
  CHECK(unknown.json[0]["message"] == "InvalidJob : Unable to find object: Nope");
  CHECK(t.get(kBulkJobsPath + "ingest/7505J000000000AAAA").status == 404);
  CHECK(t.get(kBulkJobsPath + "ingest/garbage").status == 404);
  auto bad_json = t.post_raw(kBulkJobsPath + "ingest", "{");
  CHECK(bad_json.status == 400);
  auto made = t.post(kBulkJobsPath + "ingest", {{"object", "Contact"}, {"operation", "insert"}});
  const std::string id = made.json["id"];
  auto bad_state =
      t.send("PATCH", kBulkJobsPath + "ingest/" + id, json{{"state", "JobComplete"}}.dump());
  CHECK(bad_state.status == 400);
  CHECK(bulk_error_code_of(bad_state) == "INVALIDJOBSTATE");
  CHECK(t.send("DELETE", kBulkJobsPath + "ingest/" + id, "").status == 400);  // Open: abort first
  CHECK(t.get(kBulkJobsPath + "ingest", false).status == 401);
}
