// --data-dir over real HTTP: an org stopped and started again on the same
// directory serves what it answered before (README "Durability").
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "app/org_factory.h"
#include "domain/core/events.h"
#include "domain/core/fields.h"
#include "domain/org/psp_sessions.h"
#include "domain/payments/payment_intents.h"
#include "domain/store/idempotency.h"
#include "durable/org_database.h"
#include "durable/saved_orgs.h"
#include "testing/eventually.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct DataDir {
  fs::path path;
  DataDir() {
    static int n = 0;
    path = fs::temp_directory_path() /
           ("fake-org-data-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(path);
  }
  ~DataDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

EmbeddedOptions kept_in(const DataDir& dir, size_t max_orgs = 0) {
  EmbeddedOptions o;
  o.data_dir = dir.path.string();
  o.max_orgs = max_orgs;
  return o;
}

}  // namespace

TEST_CASE("a restarted org serves the records, ids and clock it had", "[durable]") {
  DataDir dir;
  const OrgConfig config = fixture("default.yaml");
  CreatedIntent intent;
  std::string contact_id, token;
  json before;
  {
    TestOrg t(config, kept_in(dir));
    t.advance_clock("3d");
    token = t.token();
    intent = t.create_intent(IntentBody::one_time().contact({{"LastName", "Kept"}}));
    before = t.get("/PaymentIntent/" + intent.id).json;
    contact_id = before.at("Payer").at("Contact").at("Id").get<std::string>();
  }
  TestOrg t(config, kept_in(dir));
  CHECK(t.get("/__admin/health", false).json["data_file"] ==
        durable::SavedOrgs::org_file(dir.path.string(), "default"));
  // The token issued before the restart still authenticates.
  auto with_old_token =
      t.client().Get((t.org().config().base_path() + "/PaymentIntent/" + intent.id).c_str(),
                     {{"Authorization", "Bearer " + token}});
  REQUIRE(with_old_token);
  CHECK(with_old_token->status == 200);
  auto after = t.get("/PaymentIntent/" + intent.id);
  INFO(after.body);
  REQUIRE(after.status == 200);
  CHECK(after.json == before);
  CHECK(t.record(intent.installment).object == "cpm__Installment__c");
  // Org time resumed three days ahead.
  const auto ahead = t.org().clock().offset();
  CHECK(ahead >= Millis(3 * 86400000LL - 60000));
  // The id sequence resumed: the next contact does not take an id handed out before.
  auto second = t.create_intent(IntentBody::one_time().contact({{"LastName", "Next"}}));
  auto next_contact = t.get("/PaymentIntent/" + second.id).json.at("Payer").at("Contact").at("Id");
  CHECK(next_contact.get<std::string>() > contact_id);
}

TEST_CASE("a repeated IdempotencyKey replays across a restart", "[durable]") {
  DataDir dir;
  const OrgConfig config = fixture("default.yaml");
  const json body = IntentBody::one_time().contact({{"LastName", "Once"}}).idempotency_key("k-1");
  json first;
  {
    TestOrg t(config, kept_in(dir));
    auto r = t.post("/PaymentIntent", body);
    REQUIRE(r.status == 200);
    first = r.json;
  }
  TestOrg t(config, kept_in(dir));
  const size_t contacts = t.count("Contact");
  auto again = t.post("/PaymentIntent", body);
  REQUIRE(again.status == 200);
  CHECK(again.json == first);
  CHECK(t.count("Contact") == contacts);
}

namespace {

// Writes the data directory where a commit's events flush, right after the
// store's lock is released: what a concurrent request's group flush may do
// before the committing request takes another step.
class FlushAfterCommit final : public EventSink {
 public:
  explicit FlushAfterCommit(std::shared_ptr<durable::OrgDatabase> db) : db_(std::move(db)) {}
  void publish(std::vector<DomainEvent>) override {}
  void flush() override { REQUIRE(db_->flush().ok()); }

 private:
  std::shared_ptr<durable::OrgDatabase> db_;
};

std::shared_ptr<durable::OrgDatabase> open_org_file(const std::string& path,
                                                    const OrgConfig& config) {
  std::string error;
  auto db = durable::OrgDatabase::open(
      {path, config.source_name, config.digest, durable::Sync::kNormal}, error);
  INFO(error);
  REQUIRE(db);
  return db;
}

}  // namespace

TEST_CASE("an IdempotencyKey is written with its intent's records, in one disk transaction",
          "[durable][idempotency]") {
  DataDir dir;
  fs::create_directories(dir.path);
  const std::string file = (dir.path / "org.db").string();
  const OrgConfig config = fixture("default.yaml");
  const json body =
      IntentBody::one_time(sepa_debit()).contact({{"LastName", "Once"}}).idempotency_key("k-1");
  std::string intent_id;
  {
    auto db = open_org_file(file, config);
    OrgDeps deps;
    deps.state = db;
    auto org = Org::create(config, deps);
    REQUIRE(org.ok());
    (*org)->set_event_sink(std::make_shared<FlushAfterCommit>(db));
    auto created = PaymentIntents(**org).create(body, IntentContext{"http://127.0.0.1"});
    REQUIRE(created.ok());
    intent_id = created->payment_intent_id;
    // The process dies here: nothing is flushed after the request's commit.
  }
  auto db = open_org_file(file, config);
  std::string error;
  auto saved = db->saved_org(error);
  REQUIRE(saved);
  const bool intent_kept = std::any_of(saved->records.begin(), saved->records.end(), [&](auto& r) {
    return r->text(fields::inbound_report::kPaymentIntentId) == intent_id;
  });
  REQUIRE(intent_kept);
  const auto entries = db->saved(state_kind::kIdempotency, error);
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].first == "k-1");
  CHECK(entries[0].second.at("response").at("Id") == intent_id);
}

TEST_CASE("a restart puts PSP sessions back without writing them again", "[durable][psp]") {
  DataDir dir;
  const OrgConfig config = fixture("default.yaml");
  std::string session;
  {
    TestOrg t(config, kept_in(dir));
    session = t.create_intent(IntentBody::one_time()).session;  // a card: a hosted page
    REQUIRE_FALSE(session.empty());
  }
  app::OrgWiring wiring;
  wiring.data_file = durable::SavedOrgs::org_file(dir.path.string(), "default");
  auto services = app::build_org(config, std::move(wiring));
  REQUIRE(services.ok());
  CHECK(services->org->psp_sessions().get(session).has_value());
  // Start-up wrote nothing: the session's row was already there.
  auto db = std::dynamic_pointer_cast<durable::OrgDatabase>(services->org->state());
  REQUIRE(db);
  CHECK(db->flushes() == 0);
}

TEST_CASE("a reset is kept: the restarted org has only its seed", "[durable]") {
  DataDir dir;
  const OrgConfig config = fixture("default.yaml");
  size_t seeded = 0;
  {
    TestOrg t(config, kept_in(dir));
    seeded = t.count("Contact");
    t.create_intent(IntentBody::one_time().contact({{"LastName", "Gone"}}));
    REQUIRE(t.count("Contact") == seeded + 1);
    REQUIRE(t.post("/__admin/reset", json::object(), false).status == 200);
  }
  TestOrg t(config, kept_in(dir));
  CHECK(t.count("Contact") == seeded);
}

TEST_CASE("orgs created at runtime come back after a restart, deleted ones do not",
          "[durable][orgs]") {
  DataDir dir;
  const OrgConfig config = fixture("default.yaml");
  {
    TestOrg t(config, kept_in(dir, 10));
    REQUIRE(t.post("/__admin/orgs", {{"name", "kept"}, {"login_paths", false}}, false).status ==
            201);
    REQUIRE(t.post("/__admin/orgs", {{"name", "dropped"}, {"login_paths", false}}, false).status ==
            201);
    REQUIRE(t.send("DELETE", "/__admin/orgs/dropped", "", false).status == 200);
    CHECK_FALSE(fs::exists(durable::SavedOrgs::org_file(dir.path.string(), "dropped")));
    CHECK(fs::exists(durable::SavedOrgs::org_file(dir.path.string(), "kept")));
  }
  TestOrg t(config, kept_in(dir, 10));
  auto orgs = t.get("/__admin/orgs", false);
  REQUIRE(orgs.status == 200);
  std::vector<std::string> names;
  for (const auto& o : orgs.json["orgs"]) names.push_back(o["name"].get<std::string>());
  CHECK(names == std::vector<std::string>{"default", "kept"});
}

TEST_CASE("a data directory of another fixture is refused at start", "[durable]") {
  DataDir dir;
  { TestOrg t(fixture("default.yaml"), kept_in(dir)); }
  try {
    EmbeddedOrg::start(fixture("nonprofit.yaml"), kept_in(dir));
    FAIL("started on another fixture's data");
  } catch (const std::runtime_error& e) {
    CHECK_THAT(e.what(), Catch::Contains("--reset-data"));
  }
}

TEST_CASE("a restarted org serves its bulk jobs: results of a finished one, an open one's upload",
          "[durable]") {
  DataDir dir;
  const OrgConfig config = fixture("default.yaml");
  const std::string jobs = "/services/data/v59.0/jobs/ingest";
  std::string done, open, ok_before;
  {
    TestOrg t(config, kept_in(dir));
    const httplib::Headers auth{{"Authorization", "Bearer " + t.token()}};
    done = t.post(jobs, {{"object", "Contact"}, {"operation", "insert"}}).json.at("id");
    REQUIRE(t.client()
                .Put((jobs + "/" + done + "/batches").c_str(), auth,
                     "LastName,Email\nBulkKept,k@example.org\n,nolast@example.org\n", "text/csv")
                ->status == 201);
    REQUIRE(t.send("PATCH", jobs + "/" + done, json{{"state", "UploadComplete"}}.dump()).status ==
            200);
    REQUIRE(eventually([&] { return t.get(jobs + "/" + done).json["state"] == "JobComplete"; }));
    ok_before = t.get(jobs + "/" + done + "/successfulResults").body;
    open = t.post(jobs, {{"object", "Contact"}, {"operation", "insert"}}).json.at("id");
    REQUIRE(t.client()
                .Put((jobs + "/" + open + "/batches").c_str(), auth, "LastName\nBulkLater\n",
                     "text/csv")
                ->status == 201);
  }
  TestOrg t(config, kept_in(dir));
  auto info = t.get(jobs + "/" + done);
  INFO(info.body);
  CHECK(info.json["state"] == "JobComplete");
  CHECK(info.json["numberRecordsFailed"] == 1);
  CHECK(t.get(jobs + "/" + done + "/successfulResults").body == ok_before);
  CHECK(t.get(jobs + "/" + open).json["state"] == "Open");
  REQUIRE(t.send("PATCH", jobs + "/" + open, json{{"state", "UploadComplete"}}.dump()).status ==
          200);
  REQUIRE(eventually([&] { return t.get(jobs + "/" + open).json["state"] == "JobComplete"; }));
  auto count = t.get(
      "/services/data/v59.0/query?q=SELECT%20COUNT()%20FROM%20Contact%20WHERE%20LastName%20IN%20"
      "(%27BulkKept%27,%27BulkLater%27)");
  INFO(count.body);
  CHECK(count.json["totalSize"] == 2);
}
