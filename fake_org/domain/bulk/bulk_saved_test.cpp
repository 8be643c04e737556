#include "bulk_saved.h"

#include <catch2/catch.hpp>

#include <map>
#include <mutex>

#include "bulk_jobs.h"
#include "domain/store/org_state.h"
#include "testing/domain_org.h"

namespace fake_org::bulk {

namespace {

using nlohmann::json;

// What a data directory would keep, in memory. Locking rule: mu guards kept.
class KeptState final : public OrgStateSink {
 public:
  void records_committed(const std::vector<RecordPtr>&, uint64_t) override {}
  void records_replaced(const std::vector<RecordPtr>&, uint64_t) override {}
  void put(std::string_view kind, std::string_view key, const json& value) override {
    std::lock_guard lock(mu);
    kept[std::string(kind)][std::string(key)] = value;
  }
  void put_text(std::string_view kind, std::string_view key, std::string text) override {
    put(kind, key, json(std::move(text)));
  }
  void erase(std::string_view kind, std::string_view key) override {
    std::lock_guard lock(mu);
    kept[std::string(kind)].erase(std::string(key));
  }
  void clear(std::string_view kind) override {
    std::lock_guard lock(mu);
    kept.erase(std::string(kind));
  }
  Status flush() override { return Ok{}; }
  std::string location() const override { return "memory"; }

  BulkJobs::Saved saved(std::string_view kind) {
    std::lock_guard lock(mu);
    BulkJobs::Saved out;
    for (const auto& [k, v] : kept[std::string(kind)]) out.emplace_back(k, v);
    return out;
  }
  void restore_into(BulkJobs& jobs) {
    jobs.restore(saved(saved_kind::kJob), saved(saved_kind::kUpload), saved(saved_kind::kRows),
                 saved(saved_kind::kQuery));
  }

  std::mutex mu;
  std::map<std::string, std::map<std::string, json>> kept;
};

struct KeptOrg {
  std::shared_ptr<KeptState> state = std::make_shared<KeptState>();
  testing::DomainOrg t{testing::default_config(), state};
  BulkJobs jobs{t.org};
};

std::string bulk_saved_csv(size_t rows) {
  std::string csv = "LastName,FirstName\n";
  for (size_t i = 0; i < rows; ++i) csv += "Kept" + std::to_string(i) + ",Row\n";
  return csv;
}

std::string bulk_saved_ingest(BulkJobs& jobs, const std::string& csv) {
  auto made = jobs.create_ingest({{"object", "Contact"}, {"operation", "insert"}}, "59.0");
  REQUIRE(made.ok());
  const std::string id = (*made)["id"];
  REQUIRE(jobs.upload(id, csv).ok());
  REQUIRE(jobs.change_state(JobKind::kIngest, id, {{"state", "UploadComplete"}}).ok());
  jobs.wait_idle();
  return id;
}

size_t bulk_saved_kept_contacts(testing::DomainOrg& t) {
  size_t n = 0;
  t.org->records().read([&](const RecordStore& store) {
    for (size_t i = 0, end = store.ids_of("Contact").size(); i < end; ++i) {
      const RecordPtr& r = store.ids_of("Contact").record(i);
      if (r && r->text("LastName").rfind("Kept", 0) == 0) ++n;
    }
  });
  return n;
}

}  // namespace

TEST_CASE("bulk saved: a job cut after its first chunk resumes at the second", "[domain][bulk]") {
  KeptOrg before;
  const std::string csv = bulk_saved_csv(2 * kChunkRecords + 1);  // chunks 0, 1 and 2
  const std::string id = bulk_saved_ingest(before.jobs, csv);
  REQUIRE(before.state->kept["bulk_rows"].size() == 3);
  const std::string results = *before.jobs.ingest_results(id, IngestResults::kSuccessful);

  // What a crash between the first and the second chunk's commits leaves.
  KeptOrg after;
  after.state->kept = before.state->kept;
  after.state->kept["bulk_rows"].erase(chunk_key(id, 1));
  after.state->kept["bulk_rows"].erase(chunk_key(id, 2));
  after.state->kept["bulk_job"][id]["state"] = "InProgress";
  after.state->restore_into(after.jobs);
  after.jobs.wait_idle();

  auto info = after.jobs.info(JobKind::kIngest, id);
  REQUIRE(info.ok());
  CHECK((*info)["state"] == "JobComplete");
  CHECK((*info)["numberRecordsProcessed"] == 2 * kChunkRecords + 1);
  CHECK((*info)["numberRecordsFailed"] == 0);
  // Only the rows after the kept chunk were written again (this org never
  // had the first chunk's records: they were the crashed process's).
  CHECK(bulk_saved_kept_contacts(after.t) == kChunkRecords + 1);
  auto again = after.jobs.ingest_results(id, IngestResults::kSuccessful);
  REQUIRE(again.ok());
  CHECK(std::count(again->begin(), again->end(), '\n') ==
        std::count(results.begin(), results.end(), '\n'));
  CHECK(again->substr(0, again->find('\n', 40)) == results.substr(0, results.find('\n', 40)));
  CHECK(after.state->kept["bulk_rows"].size() == 3);
}

TEST_CASE("bulk saved: finished, open and aborted jobs come back as they were", "[domain][bulk]") {
  KeptOrg before;
  const std::string done =
      bulk_saved_ingest(before.jobs, "LastName,Email\nKeptA,a@x.org\n,b@x.org\n");
  auto open = before.jobs.create_ingest({{"object", "Contact"}, {"operation", "insert"}}, "59.0");
  const std::string open_id = (*open)["id"];
  REQUIRE(before.jobs.upload(open_id, "LastName\nKeptOpen\n").ok());
  auto aborted =
      before.jobs.create_ingest({{"object", "Account"}, {"operation", "insert"}}, "59.0");
  const std::string aborted_id = (*aborted)["id"];
  REQUIRE(before.jobs.change_state(JobKind::kIngest, aborted_id, {{"state", "Aborted"}}).ok());
  auto query = before.jobs.create_query(
      {{"operation", "query"}, {"query", "SELECT LastName FROM Contact WHERE LastName = 'KeptA'"}},
      "59.0");
  const std::string query_id = (*query)["id"];
  before.jobs.wait_idle();
  const std::string failed = *before.jobs.ingest_results(done, IngestResults::kFailed);
  const std::string page = before.jobs.query_results(query_id, "", "")->csv;

  KeptOrg after;
  after.state->kept = before.state->kept;
  after.state->restore_into(after.jobs);
  after.jobs.wait_idle();
  CHECK(*after.jobs.ingest_results(done, IngestResults::kFailed) == failed);
  CHECK((*after.jobs.info(JobKind::kIngest, done))["numberRecordsFailed"] == 1);
  CHECK((*after.jobs.info(JobKind::kIngest, open_id))["state"] == "Open");
  REQUIRE(after.jobs.change_state(JobKind::kIngest, open_id, {{"state", "UploadComplete"}}).ok());
  after.jobs.wait_idle();
  CHECK((*after.jobs.info(JobKind::kIngest, open_id))["numberRecordsProcessed"] == 1);
  CHECK((*after.jobs.info(JobKind::kIngest, aborted_id))["state"] == "Aborted");
  CHECK(after.jobs.query_results(query_id, "", "")->csv == page);
  // A new job takes a sequence after the restored ones: lists stay in order.
  auto next = after.jobs.create_ingest({{"object", "Contact"}, {"operation", "insert"}}, "59.0");
  REQUIRE(next.ok());
  auto list = after.jobs.list(JobKind::kIngest, "", "", false, "59.0");
  REQUIRE(list.ok());
  CHECK((*list)["records"].back()["id"] == (*next)["id"]);
  // A deleted job leaves nothing kept.
  REQUIRE(after.jobs.remove(JobKind::kIngest, done).ok());
  CHECK(after.state->kept["bulk_job"].count(done) == 0);
  CHECK(after.state->kept["bulk_upload"].count(done) == 0);
  CHECK(after.state->kept["bulk_rows"].count(chunk_key(done, 0)) == 0);
}

TEST_CASE("bulk saved: a damaged kept job is left out, not served wrong", "[domain][bulk]") {
  KeptOrg before;
  const std::string id = bulk_saved_ingest(before.jobs, "LastName\nKeptX\n");
  KeptOrg after;
  after.state->kept = before.state->kept;
  after.state->kept["bulk_rows"][chunk_key(id, 0)]["rows"][0][1] = 1u << 30;  // past the upload
  after.state->kept["bulk_job"]["750000000000000AAA"] = json{{"id", "short"}};
  after.state->kept["bulk_rows"]["nonsense"] = 1;
  after.state->restore_into(after.jobs);
  CHECK_FALSE(after.jobs.info(JobKind::kIngest, id).ok());
  auto list = after.jobs.list(JobKind::kIngest, "", "", false, "59.0");
  REQUIRE(list.ok());
  CHECK((*list)["records"].empty());
}

}  // namespace fake_org::bulk
