#include "bulk_jobs.h"

#include <catch2/catch.hpp>

#include "domain/core/clock.h"
#include "domain/data/sobject_write.h"
#include "testing/domain_org.h"

namespace fake_org::bulk {

namespace {

using nlohmann::json;

struct BulkOrg {
  testing::DomainOrg t;
  BulkJobs jobs{t.org};

  // Creates, uploads, closes and waits for an ingest job; its id.
  std::string ingest(const json& spec, std::string csv) {
    auto made = jobs.create_ingest(spec, "59.0");
    REQUIRE(made.ok());
    const std::string id = (*made)["id"];
    REQUIRE(jobs.upload(id, std::move(csv)).ok());
    REQUIRE(jobs.change_state(JobKind::kIngest, id, {{"state", "UploadComplete"}}).ok());
    jobs.wait_idle();
    return id;
  }
  json info(const std::string& id, JobKind kind = JobKind::kIngest) {
    auto i = jobs.info(kind, id);
    REQUIRE(i.ok());
    return json::parse(i->dump());
  }
  std::string results(const std::string& id, IngestResults which) {
    auto r = jobs.ingest_results(id, which);
    REQUIRE(r.ok());
    return *r;
  }
  std::string query(const std::string& soql, const std::string& max = "",
                    const std::string& locator = "") {
    auto made = jobs.create_query({{"operation", "query"}, {"query", soql}}, "59.0");
    REQUIRE(made.ok());
    jobs.wait_idle();
    auto page = jobs.query_results((*made)["id"].get<std::string>(), locator, max);
    REQUIRE(page.ok());
    return page->csv;
  }
};

size_t bulk_count_lines(const std::string& s) {
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace

TEST_CASE("bulk ingest: insert writes good rows and fails bad ones alone", "[domain][bulk]") {
  BulkOrg b;
  const size_t before = b.t.count("Contact");
  const std::string id = b.ingest({{"object", "Contact"}, {"operation", "insert"}},
                                  "FirstName,LastName,Email,Newsletter_Opt_In__c\n"
                                  "Ada,Lovelace,ada@example.org,true\n"
                                  "No,,nolast@example.org,false\n"  // LastName missing
                                  "Bad,Mail,not-an-email,false\n"
                                  "\"Multi\nLine\",\"Quote \"\"Q\"\"\",q@example.org,#N/A\n");
  const json info = b.info(id);
  CHECK(info["state"] == "JobComplete");
  CHECK(info["numberRecordsProcessed"] == 4);
  CHECK(info["numberRecordsFailed"] == 2);
  CHECK(info["jobType"] == "V2Ingest");
  CHECK(b.t.count("Contact") == before + 2);
  const std::string ok = b.results(id, IngestResults::kSuccessful);
  CHECK(ok.rfind("\"sf__Id\",\"sf__Created\",FirstName,LastName,Email,Newsletter_Opt_In__c\n", 0) ==
        0);
  CHECK(ok.find(",\"true\",Ada,Lovelace,ada@example.org,true\n") != std::string::npos);
  CHECK(ok.find("\"Multi\nLine\",\"Quote \"\"Q\"\"\"") != std::string::npos);
  const std::string failed = b.results(id, IngestResults::kFailed);
  CHECK(bulk_count_lines(failed) == 3);
  CHECK(
      failed.find("\"\",\"REQUIRED_FIELD_MISSING:Required fields are missing: [LastName]:LastName "
                  "--\",No,,nolast@example.org,false") != std::string::npos);
  CHECK(failed.find("INVALID_EMAIL_ADDRESS:") != std::string::npos);
  CHECK(b.results(id, IngestResults::kUnprocessed) ==
        "FirstName,LastName,Email,Newsletter_Opt_In__c\n");
}

TEST_CASE("bulk ingest: a chunk past the record cap fails every row, STORAGE_LIMIT_EXCEEDED",
          "[domain][bulk][cap]") {
  BulkOrg b;
  const size_t before = b.t.count("Contact");
  b.t.org->records().set_max_records(b.t.org->records().size() + 1);
  const std::string id =
      b.ingest({{"object", "Contact"}, {"operation", "insert"}}, "LastName\nOne\nTwo\n");
  CHECK(b.info(id)["numberRecordsFailed"] == 2);
  CHECK(b.t.count("Contact") == before);
  const std::string failed = b.results(id, IngestResults::kFailed);
  INFO(failed);
  CHECK(bulk_count_lines(failed) == 3);
  CHECK(failed.find("\"\",\"STORAGE_LIMIT_EXCEEDED:storage limit exceeded: the org holds its most "
                    "records") != std::string::npos);
  CHECK(failed.find("STORAGE_LIMIT_EXCEEDED:STORAGE_LIMIT_EXCEEDED") == std::string::npos);
}

TEST_CASE("bulk ingest: an unknown header fails the job and writes nothing", "[domain][bulk]") {
  BulkOrg b;
  const size_t before = b.t.count("Contact");
  const std::string id =
      b.ingest({{"object", "Contact"}, {"operation", "insert"}}, "LastName,Nope__c\nDoe,1\n");
  const json info = b.info(id);
  CHECK(info["state"] == "Failed");
  CHECK(info["errorMessage"] == "InvalidBatch : Field name not found : Nope__c");
  CHECK(b.t.count("Contact") == before);
}

TEST_CASE("bulk ingest: update, delete and upsert by external id", "[domain][bulk]") {
  BulkOrg b;
  const std::string id = b.ingest({{"object", "Contact"},
                                   {"operation", "upsert"},
                                   {"externalIdFieldName", "External_Donor_Id__c"}},
                                  "External_Donor_Id__c,LastName\nD-1,First\nD-2,Second\n");
  CHECK(b.info(id)["numberRecordsFailed"] == 0);
  const std::string again =
      b.ingest({{"object", "Contact"},
                {"operation", "upsert"},
                {"externalIdFieldName", "External_Donor_Id__c"}},
               "External_Donor_Id__c,LastName\nD-1,Renamed\nD-3,Third\n,NoKey\n");
  const std::string ok = b.results(again, IngestResults::kSuccessful);
  CHECK(ok.find(",\"false\",D-1,Renamed") != std::string::npos);
  CHECK(ok.find(",\"true\",D-3,Third") != std::string::npos);
  CHECK(b.results(again, IngestResults::kFailed)
            .find("MISSING_ARGUMENT:External_Donor_Id__c not specified") != std::string::npos);

  const std::string upd =
      b.ingest({{"object", "Contact"}, {"operation", "update"}},
               "Id,FirstName\n" + testing::kJane + ",Janet\n001000000000000AAA,X\n");
  CHECK(b.info(upd)["numberRecordsFailed"] == 1);
  CHECK(b.t.get(testing::kJane)->text("FirstName") == "Janet");
  const std::string del =
      b.ingest({{"object", "Contact"}, {"operation", "delete"}}, "Id\n" + testing::kJane + "\n");
  CHECK(b.info(del)["numberRecordsFailed"] == 0);
  CHECK(b.t.get(testing::kJane)->deleted);
}

TEST_CASE("bulk ingest: a relationship column finds its parent by an external id",
          "[domain][bulk]") {
  BulkOrg b;
  const std::string parents = b.ingest({{"object", "Account"}, {"operation", "insert"}},
                                       "Name,Legacy_Account_Id__c\nRel Parent,LEG-7\n");
  REQUIRE(b.info(parents)["numberRecordsFailed"] == 0);
  // Text external ids match without case, as the field's index keys them.
  const std::string kids =
      b.ingest({{"object", "Contact"}, {"operation", "insert"}},
               "LastName,Account.Legacy_Account_Id__c\nKid,leg-7\nOrphan,LEG-404\n");
  CHECK(b.info(kids)["numberRecordsFailed"] == 1);
  const std::string ok = b.results(kids, IngestResults::kSuccessful);
  const std::string kid_id = ok.substr(ok.find('\n') + 2, 18);
  const std::string parent_ok = b.results(parents, IngestResults::kSuccessful);
  const std::string parent_id = parent_ok.substr(parent_ok.find('\n') + 2, 18);
  REQUIRE(b.t.get(kid_id));
  CHECK(b.t.get(kid_id)->text("AccountId") == parent_id);
  CHECK(b.results(kids, IngestResults::kFailed)
            .find("Foreign key external ID: LEG-404 not found for field Legacy_Account_Id__c "
                  "in entity Account") != std::string::npos);
  const std::string by_name = b.ingest({{"object", "Contact"}, {"operation", "insert"}},
                                       "LastName,Account.Name\nKid2,Rel Parent\n");
  CHECK(b.info(by_name)["state"] == "Failed");
  CHECK(b.info(by_name)["errorMessage"] ==
        "InvalidBatch : Invalid field for upsert, must be an External Id custom or standard "
        "indexed field: Name (Account.Name)");
  auto plain = b.jobs.create_ingest(
      {{"object", "Contact"}, {"operation", "upsert"}, {"externalIdFieldName", "LastName"}},
      "59.0");
  REQUIRE_FALSE(plain.ok());
  CHECK(plain.error().message ==
        "InvalidJob : Field name provided, LastName does not match an External ID, Salesforce "
        "Id, or indexed field for Contact");
}

TEST_CASE("bulk ingest: create refuses what the platform refuses", "[domain][bulk]") {
  BulkOrg b;
  auto code_of = [&](const json& spec) {
    auto r = b.jobs.create_ingest(spec, "59.0");
    return r.ok() ? std::string("ok") : r.error().code + " " + r.error().message;
  };
  CHECK(code_of({{"object", "Contactt"}, {"operation", "insert"}}) ==
        "INVALIDJOB InvalidJob : Unable to find object: Contactt");
  CHECK(code_of({{"object", "Contact"}, {"operation", "merge"}}).rfind("INVALIDJOB", 0) == 0);
  CHECK(code_of({{"object", "Contact"}, {"operation", "upsert"}}).find("External ID was blank") !=
        std::string::npos);
  CHECK(code_of({{"object", "Contact"}, {"operation", "insert"}, {"columnDelimiter", "COLON"}})
            .rfind("INVALIDJOB", 0) == 0);
  CHECK(code_of({{"object", "Contact"},
                 {"operation", "insert"},
                 {"lineEnding", "CRLF"},
                 {"columnDelimiter", "PIPE"}}) == "ok");
}

TEST_CASE("bulk ingest: two uploads refuse the close, an abort leaves every row unprocessed",
          "[domain][bulk]") {
  BulkOrg b;
  auto made = b.jobs.create_ingest({{"object", "Contact"}, {"operation", "insert"}}, "59.0");
  const std::string id = (*made)["id"];
  REQUIRE(b.jobs.upload(id, "LastName\nA\n").ok());
  REQUIRE(b.jobs.upload(id, "LastName\nB\n").ok());
  auto closed = b.jobs.change_state(JobKind::kIngest, id, {{"state", "UploadComplete"}});
  REQUIRE_FALSE(closed.ok());
  CHECK(closed.error().message.find("Found multipe contents for job") != std::string::npos);
  REQUIRE(b.jobs.change_state(JobKind::kIngest, id, {{"state", "Aborted"}}).ok());
  CHECK(b.info(id)["state"] == "Aborted");
  CHECK(b.results(id, IngestResults::kUnprocessed) == "LastName\nA\n");
  CHECK(b.jobs.upload(id, "x").error().code == "INVALIDJOBSTATE");
  REQUIRE(b.jobs.remove(JobKind::kIngest, id).ok());
  CHECK(b.jobs.info(JobKind::kIngest, id).error().code == "NOT_FOUND");
}

TEST_CASE("bulk: the speed setting holds a finished job InProgress until the org clock passes",
          "[domain][bulk]") {
  BulkOrg b;
  b.jobs.set_processing_time(Millis(60'000));
  const std::string id =
      b.ingest({{"object", "Contact"}, {"operation", "insert"}}, "LastName\nA\n");
  CHECK(b.info(id)["state"] == "InProgress");
  b.t.org->clock().advance(Millis(59'999));
  CHECK(b.info(id)["state"] == "InProgress");
  b.t.org->clock().advance(Millis(1));
  CHECK(b.info(id)["state"] == "JobComplete");
}

TEST_CASE("bulk query: CSV columns by path, pages by maxRecords and locator", "[domain][bulk]") {
  BulkOrg b;
  const std::string all =
      b.query("SELECT Id, LastName, Account.Name FROM Contact ORDER BY LastName");
  CHECK(all.rfind("\"Id\",\"LastName\",\"Account.Name\"\n", 0) == 0);
  const size_t rows = bulk_count_lines(all) - 1;
  REQUIRE(rows >= 2);
  auto made =
      b.jobs.create_query({{"query", "SELECT Id FROM Contact"}, {"lineEnding", "CRLF"}}, "59.0");
  const std::string id = (*made)["id"];
  b.jobs.wait_idle();
  CHECK(b.info(id, JobKind::kQuery)["numberRecordsProcessed"] == rows);
  auto first = b.jobs.query_results(id, "", "1");
  REQUIRE(first.ok());
  CHECK(first->records == 1);
  CHECK(first->next_locator == "MQ");  // base64 of "1", as the platform's look
  CHECK(first->csv.find("\r\n") != std::string::npos);
  auto second = b.jobs.query_results(id, first->next_locator, "1000");
  REQUIRE(second.ok());
  CHECK(second->records == rows - 1);
  CHECK(second->next_locator == "null");
  CHECK(b.jobs.query_results(id, "bad!", "").error().code == "INVALIDLOCATOR");
}

TEST_CASE("bulk query: what bulk queries refuse is refused at create", "[domain][bulk]") {
  BulkOrg b;
  auto code_of = [&](const std::string& soql) {
    auto r = b.jobs.create_query({{"query", soql}}, "59.0");
    return r.ok() ? std::string("ok") : r.error().code;
  };
  CHECK(code_of("SELECT COUNT() FROM Contact") == "API_ERROR");
  CHECK(code_of("SELECT LastName, COUNT(Id) FROM Contact GROUP BY LastName") == "API_ERROR");
  CHECK(code_of("SELECT Id FROM Contact OFFSET 5") == "API_ERROR");
  CHECK(code_of("SELECT Id FROM Nope") == "INVALID_TYPE");
  CHECK(code_of("SELEC Id FROM Contact") == "MALFORMED_QUERY");
}

TEST_CASE("bulk: results of a query job not finished answer JOB_NOT_COMPLETE, lists page",
          "[domain][bulk]") {
  BulkOrg b;
  b.jobs.set_processing_time(Millis(1000));
  auto made = b.jobs.create_query({{"query", "SELECT Id FROM Contact"}}, "59.0");
  b.jobs.wait_idle();
  auto early = b.jobs.query_results((*made)["id"].get<std::string>(), "", "");
  REQUIRE_FALSE(early.ok());
  CHECK(early.error().kind == BulkError::Kind::kNotComplete);
  for (int i = 0; i < 1001; ++i)
    REQUIRE(b.jobs.create_ingest({{"object", "Contact"}, {"operation", "insert"}}, "59.0").ok());
  auto page = b.jobs.list(JobKind::kIngest, "", "", false, "59.0");
  REQUIRE(page.ok());
  CHECK((*page)["records"].size() == kJobsPerPage);
  CHECK((*page)["done"] == false);
  const std::string next = (*page)["nextRecordsUrl"];
  const std::string locator = next.substr(next.find('=') + 1);
  auto rest = b.jobs.list(JobKind::kIngest, locator, "", false, "59.0");
  CHECK((*rest)["records"].size() == 1);
  CHECK((*rest)["nextRecordsUrl"].is_null());
  CHECK((*b.jobs.list(JobKind::kIngest, "", "Classic", false, "59.0"))["records"].empty());
  CHECK((*b.jobs.list(JobKind::kQuery, "", "", false, "59.0"))["records"].size() == 1);
}

}  // namespace fake_org::bulk

namespace fake_org::bulk {

TEST_CASE("bulk: a fixture's org.bulk_processing_time is the speed jobs start with",
          "[domain][bulk]") {
  OrgConfig config = testing::default_config();
  config.org.bulk_processing_time = Millis(30'000);
  testing::DomainOrg t(config);
  BulkJobs jobs{t.org};
  CHECK(jobs.processing_time() == Millis(30'000));
  CHECK(BulkJobs{testing::DomainOrg().org}.processing_time() == Millis(0));
}

}  // namespace fake_org::bulk
