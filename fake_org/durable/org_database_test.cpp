// The data directory's database on its own: what it keeps, what it refuses,
// and group commit.
#include "durable/org_database.h"

#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <shared_mutex>
#include <thread>

#include "durable/saved_orgs.h"
#include "durable/sqlite.h"

using namespace fake_org;
using namespace fake_org::durable;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("fake-org-db-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

RecordPtr db_contact(const std::string& id, const std::string& email) {
  Record r;
  r.object = "Contact";
  r.id = id;
  r.fields = {{"Email", email}};
  r.created = r.modified = TimePoint(Millis(1700000000000));
  return make_record(std::move(r));
}

std::shared_ptr<OrgDatabase> open_db(const std::string& path, const std::string& digest = "d1") {
  std::string error;
  auto db = OrgDatabase::open({path, "shop.yaml", digest, Sync::kNormal}, error);
  INFO(error);
  REQUIRE(db);
  return db;
}

}  // namespace

TEST_CASE("a new database has nothing saved, what flushed comes back in order", "[durable]") {
  TempDir dir;
  const std::string path = dir.file("org.db");
  {
    auto db = open_db(path);
    std::string error;
    CHECK(db->saved_org(error) == nullptr);
    CHECK(error.empty());
    db->records_replaced({db_contact("003000000000002AAA", "b@example.org")}, 2);
    db->records_committed({db_contact("003000000000001AAA", "a@example.org")}, 7);
    Record changed = *db_contact("003000000000002AAA", "B2@example.org");
    changed.deleted = true;
    db->records_committed({make_record(std::move(changed))}, 7);
    db->put(state_kind::kOrg, org_state_key::kClockOffsetMs, 86400000);
    REQUIRE(db->flush().ok());
    CHECK(db->flushes() == 1);  // one disk transaction for everything queued
  }
  auto db = open_db(path);
  std::string error;
  auto saved = db->saved_org(error);
  REQUIRE(saved);
  CHECK(saved->id_sequence == 7);
  CHECK(saved->clock_offset_ms == 86400000);
  REQUIRE(saved->records.size() == 2);
  // Creation order, an update keeping its place.
  CHECK(saved->records[0]->id == "003000000000002AAA");
  CHECK(saved->records[0]->text("Email") == "B2@example.org");
  CHECK(saved->records[0]->deleted);
  CHECK(saved->records[1]->id == "003000000000001AAA");
  CHECK(saved->records[1]->created == TimePoint(Millis(1700000000000)));
}

TEST_CASE("many records are read back by several readers, in creation order", "[durable]") {
  // Enough records for readers on two cores to share the ranges of rowids.
  TempDir dir;
  const std::string path = dir.file("org.db");
  const int count = 100000;
  {
    auto db = open_db(path);
    std::vector<RecordPtr> records;
    char id[19];
    for (int i = 0; i < count; ++i) {
      std::snprintf(id, sizeof id, "003%013dAA", i);
      records.push_back(db_contact(id, "d" + std::to_string(i) + "@example.org"));
    }
    db->records_committed(records, count);
    REQUIRE(db->flush().ok());
  }
  auto db = open_db(path);
  std::string error;
  auto saved = db->saved_org(error);
  INFO(error);
  REQUIRE(saved);
  REQUIRE(saved->records.size() == count);
  bool in_order = true;
  for (int i = 0; i < count && in_order; ++i)
    in_order = saved->records[i]->text("Email") == "d" + std::to_string(i) + "@example.org";
  CHECK(in_order);
  CHECK(saved->records[count - 1]->id == "0030000000099999AA");
}

TEST_CASE("rowids put in by hand, negative or far apart, are all read in order", "[durable]") {
  TempDir dir;
  const std::string path = dir.file("org.db");
  {
    auto db = open_db(path);
    db->records_committed({db_contact("003000000000001AAA", "a@example.org"),
                           db_contact("003000000000002AAA", "b@example.org"),
                           db_contact("003000000000003AAA", "c@example.org")},
                          3);
    REQUIRE(db->flush().ok());
  }
  {
    std::string error;
    auto raw = Database::open(path, false, error);
    REQUIRE(raw);
    CHECK_FALSE(
        raw->exec("UPDATE records SET rowid = 9000000000000000000 "
                  "WHERE id = '003000000000001AAA'"));
    CHECK_FALSE(
        raw->exec("UPDATE records SET rowid = -9000000000000000000 "
                  "WHERE id = '003000000000003AAA'"));
  }
  auto db = open_db(path);
  std::string error;
  auto saved = db->saved_org(error);
  INFO(error);
  REQUIRE(saved);
  REQUIRE(saved->records.size() == 3);
  CHECK(saved->records[0]->id == "003000000000003AAA");
  CHECK(saved->records[1]->id == "003000000000002AAA");
  CHECK(saved->records[2]->id == "003000000000001AAA");
}

TEST_CASE("close writes what is queued, then refuses to write more", "[durable]") {
  TempDir dir;
  const std::string path = dir.file("org.db");
  {
    auto db = open_db(path);
    db->records_committed({db_contact("003000000000001AAA", "a@example.org")}, 1);
    REQUIRE(db->close().ok());
    CHECK(db->flushes() == 1);
    CHECK_FALSE(fs::exists(path + "-wal"));  // closed: SQLite checkpointed its log
    db->put(state_kind::kToken, "t1", {{"client_id", "c"}});
    auto late = db->flush();
    REQUIRE_FALSE(late.ok());
    CHECK_THAT(late.errors().front().message, Catch::Contains("was closed"));
  }
  auto db = open_db(path);
  std::string error;
  auto saved = db->saved_org(error);
  REQUIRE(saved);
  CHECK(saved->records.size() == 1);
  CHECK(db->saved(state_kind::kToken, error).empty());
}

TEST_CASE("a reset replaces every record, keyed state puts, erases and clears", "[durable]") {
  TempDir dir;
  auto db = open_db(dir.file("org.db"));
  db->records_committed({db_contact("003000000000001AAA", "a@example.org")}, 1);
  db->put(state_kind::kToken, "t1", {{"client_id", "c"}});
  db->put(state_kind::kToken, "t2", {{"client_id", "d"}});
  db->put(state_kind::kWebhook, "e1", {{"n", 1}});
  db->erase(state_kind::kToken, "t1");
  REQUIRE(db->flush().ok());
  db->records_replaced({db_contact("003000000000009AAA", "z@example.org")}, 0);
  db->clear(state_kind::kWebhook);
  REQUIRE(db->flush().ok());
  std::string error;
  auto tokens = db->saved(state_kind::kToken, error);
  REQUIRE(tokens.size() == 1);
  CHECK(tokens[0].first == "t2");
  CHECK(tokens[0].second["client_id"] == "d");
  CHECK(db->saved(state_kind::kWebhook, error).empty());
  auto saved = db->saved_org(error);
  REQUIRE(saved);
  REQUIRE(saved->records.size() == 1);
  CHECK(saved->records[0]->id == "003000000000009AAA");
  CHECK(saved->id_sequence == 0);
}

TEST_CASE("a flush returns only once what it answers for is on disk", "[durable]") {
  TempDir dir;
  const std::string path = dir.file("org.db");
  auto db = open_db(path);
  std::string error;
  // Another connection holds SQLite's write lock, so the first flush drains
  // the queue and then waits in the busy handler, its changes not yet written.
  auto other = Database::open(path, false, error);
  REQUIRE(other);
  REQUIRE_FALSE(other->exec("BEGIN IMMEDIATE"));
  db->put(state_kind::kToken, "t1", {{"client_id", "c"}});
  std::thread first([&] { CHECK(db->flush().ok()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // A request that queued t1 (or read it in memory) flushes too: the queue
  // is empty, but its answer must still wait for the first flush's commit.
  auto second = std::async(std::launch::async, [&] {
    const bool flushed = db->flush().ok();
    std::string e;
    auto reader = Database::open(path, false, e);
    auto count = reader ? reader->prepare("SELECT count(*) FROM state WHERE key='t1'", e) : nullptr;
    return flushed && count && count->step(e) && count->integer(0) == 1;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  REQUIRE_FALSE(other->exec("COMMIT"));
  first.join();
  CHECK(second.get());
  CHECK(db->flushes() == 1);
}

TEST_CASE("a flush takes the queue between commits, never inside one", "[durable]") {
  TempDir dir;
  auto db = open_db(dir.file("org.db"));
  std::shared_mutex store;  // the record store's lock, as the wiring gives it
  db->set_swap_guard([&](const std::function<void()>& swap) {
    std::shared_lock lock(store);
    swap();
  });
  // A commit has queued its records, not yet the webhook event it publishes.
  std::unique_lock commit(store);
  db->records_committed({db_contact("003000000000001AAA", "a@example.org")}, 1);
  auto flushed = std::async(std::launch::async, [&] { return db->flush().ok(); });
  CHECK(flushed.wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout);
  db->put(state_kind::kWebhook, "evt_1", {{"n", 1}});
  commit.unlock();
  REQUIRE(flushed.get());
  CHECK(db->flushes() == 1);  // the records and their event in one transaction
  std::string error;
  CHECK(db->saved(state_kind::kWebhook, error).size() == 1);
}

TEST_CASE("a database from another fixture or a newer format is refused, unchanged", "[durable]") {
  TempDir dir;
  const std::string path = dir.file("org.db");
  {
    auto db = open_db(path, "digest-a");
    db->records_committed({db_contact("003000000000001AAA", "a@example.org")}, 1);
    REQUIRE(db->flush().ok());
  }
  std::string error;
  CHECK_FALSE(OrgDatabase::open({path, "other.yaml", "digest-b", Sync::kNormal}, error));
  CHECK_THAT(error, Catch::Contains("made from the fixture shop.yaml, not from this org's "
                                    "other.yaml") &&
                        Catch::Contains("--reset-data"));
  error.clear();
  CHECK_FALSE(OrgDatabase::open({path, "shop.yaml", "digest-b", Sync::kNormal}, error));
  CHECK_THAT(error, Catch::Contains("as it is now (the file changed)"));
  {
    auto raw = Database::open(path, false, error);
    REQUIRE(raw);
    REQUIRE_FALSE(raw->exec("UPDATE meta SET value='99' WHERE key='format'"));
  }
  error.clear();
  CHECK_FALSE(OrgDatabase::open({path, "shop.yaml", "digest-a", Sync::kNormal}, error));
  CHECK_THAT(error, Catch::Contains("newer fake-org (data format 99; this one reads format 2)"));
  // Refusing changed nothing: the record is still there.
  auto raw = Database::open(path, false, error);
  REQUIRE(raw);
  auto count = raw->prepare("SELECT count(*) FROM records", error);
  REQUIRE(count);
  REQUIRE(count->step(error));
  CHECK(count->integer(0) == 1);
}

TEST_CASE("a format 1 file is read and marked format 2, so an older fake-org refuses it",
          "[durable]") {
  TempDir dir;
  const std::string path = dir.file("org.db");
  {
    auto db = open_db(path);
    db->put("webhook", "evt_1", {{"seq", 1}, {"payload", "{}"}});
    REQUIRE(db->flush().ok());
  }
  std::string error;
  auto format = [&] {
    auto raw = Database::open(path, false, error);
    REQUIRE(raw);
    auto read = raw->prepare("SELECT value FROM meta WHERE key='format'", error);
    REQUIRE(read);
    REQUIRE(read->step(error));
    return std::string(read->text(0));
  };
  CHECK(format() == "2");
  {
    auto raw = Database::open(path, false, error);
    REQUIRE(raw);
    REQUIRE_FALSE(raw->exec("UPDATE meta SET value='1' WHERE key='format'"));
  }
  auto db = open_db(path);
  CHECK(format() == "2");
  auto kept = db->saved("webhook", error);
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].second["payload"] == "{}");
}

TEST_CASE("put_text keeps the very text, put its JSON text", "[durable]") {
  TempDir dir;
  const std::string path = dir.file("org.db");
  const std::string text = "{\"seq\":1}\n{\"type\":\"a\"}";
  {
    auto db = open_db(path);
    db->put_text("webhook", "evt_1", text);
    db->put("webhook", "evt_2", {{"seq", 2}});
    REQUIRE(db->flush().ok());
  }
  std::string error;
  auto kept = open_db(path)->saved_texts("webhook", error);
  CHECK(error.empty());
  REQUIRE(kept.size() == 2);
  CHECK(kept[0] == std::pair<std::string, std::string>{"evt_1", text});
  CHECK(kept[1] == std::pair<std::string, std::string>{"evt_2", "{\"seq\":2}"});
}

TEST_CASE("a damaged database is reported in SQLite's words and left as it is", "[durable]") {
  TempDir dir;
  const std::string path = dir.file("org.db");
  const std::string garbage(8192, 'x');
  std::ofstream(path, std::ios::binary) << garbage;
  std::string error;
  CHECK_FALSE(OrgDatabase::open({path, "shop.yaml", "d1", Sync::kFull}, error));
  CHECK_THAT(error, Catch::Contains("file is not a database") &&
                        Catch::Contains("Nothing was changed") && Catch::Contains(path));
  std::ifstream in(path, std::ios::binary);
  std::string after((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(after == garbage);
}

TEST_CASE("a sync setting is full, normal or off", "[durable]") {
  CHECK(parse_sync("full") == Sync::kFull);
  CHECK(parse_sync("normal") == Sync::kNormal);
  CHECK(parse_sync("off") == Sync::kOff);
  CHECK_FALSE(parse_sync("FULL"));
  CHECK_FALSE(parse_sync(""));
}

TEST_CASE("the saved org list survives reopening, --reset-data deletes only ours", "[durable]") {
  TempDir dir;
  const std::string data = dir.path.string();
  REQUIRE_FALSE(SavedOrgs::prepare(data));
  std::ofstream(dir.file("notes.txt")) << "mine";
  {
    std::string error;
    auto orgs = SavedOrgs::open(data, error);
    REQUIRE(orgs);
    REQUIRE_FALSE(orgs->add({"shop", "default.yaml", true}));
    REQUIRE_FALSE(orgs->add({"inline", {{"extends", "default.yaml"}}, false}));
    std::ofstream(SavedOrgs::org_file(data, "shop")) << "x";
    REQUIRE_FALSE(orgs->remove("shop"));
    CHECK_FALSE(fs::exists(SavedOrgs::org_file(data, "shop")));
  }
  std::string error;
  auto orgs = SavedOrgs::open(data, error);
  REQUIRE(orgs);
  auto list = orgs->list(error);
  REQUIRE(list.size() == 1);
  CHECK(list[0].name == "inline");
  CHECK(list[0].fixture == nlohmann::json{{"extends", "default.yaml"}});
  CHECK_FALSE(list[0].login_paths);
  orgs.reset();
  std::ofstream(SavedOrgs::org_file(data, "other")) << "x";
  REQUIRE_FALSE(SavedOrgs::reset(data));
  CHECK_FALSE(fs::exists(dir.file("registry.db")));
  CHECK_FALSE(fs::exists(SavedOrgs::org_file(data, "other")));
  CHECK(fs::exists(dir.file("notes.txt")));
}

namespace {

// Every write of this process past the first byte of a file fails while it
// lives, as on a full disk (SIGXFSZ ignored, as fake-org's main does).
struct DiskFullWindow {
  rlimit before{};
  void (*old_handler)(int) = nullptr;
  DiskFullWindow() {
    old_handler = std::signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &before);
    rlimit one = before;
    one.rlim_cur = 1;
    setrlimit(RLIMIT_FSIZE, &one);
  }
  ~DiskFullWindow() {
    setrlimit(RLIMIT_FSIZE, &before);
    std::signal(SIGXFSZ, old_handler);
  }
};

}  // namespace

TEST_CASE("a flush the disk refuses drops its changes and every later one", "[durable]") {
  TempDir dir;
  const std::string path = dir.file("org.db");
  auto db = open_db(path);
  db->records_committed({db_contact("003000000000001AAA", "kept@example.org")}, 1);
  REQUIRE(db->flush().ok());
  db->records_committed({db_contact("003000000000002AAA", "refused@example.org")}, 2);
  Status refused = ok_status();
  {
    DiskFullWindow full;
    refused = db->flush();
  }
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.errors().front().message, Catch::Contains("was not applied"));
  CHECK(db->rolled_back());
  CHECK(db->disk_full());
  CHECK_FALSE(db->disk_problem().empty());
  // With room again, the dropped org still writes nothing: it is built again.
  db->records_committed({db_contact("003000000000003AAA", "late@example.org")}, 3);
  CHECK_FALSE(db->flush().ok());

  std::string error;
  auto again = OrgDatabase::open({path, "shop.yaml", "d1", Sync::kNormal, true}, error);
  REQUIRE(again);
  auto saved = again->saved_org(error);
  REQUIRE(saved);
  REQUIRE(saved->records.size() == 1);
  CHECK(saved->records[0]->id == "003000000000001AAA");
  CHECK(again->disk_full());
  {
    DiskFullWindow full;
    CHECK_FALSE(again->probe_disk().ok());
  }
  CHECK(again->disk_full());
  REQUIRE(again->probe_disk().ok());
  CHECK_FALSE(again->disk_full());
  CHECK_FALSE(again->rolled_back());
}

TEST_CASE("a request whose own changes a concurrent flush wrote stands", "[durable]") {
  TempDir dir;
  auto db = open_db(dir.file("org.db"));
  db->begin_request();
  CHECK_FALSE(db->own_changes_written());  // queued nothing
  db->records_committed({db_contact("003000000000001AAA", "mine@example.org")}, 1);
  CHECK_FALSE(db->own_changes_written());  // not written yet
  std::thread([&] { REQUIRE(db->flush().ok()); }).join();
  CHECK(db->own_changes_written());
  // Another thread's change then fails: this request's still stand.
  std::thread([&] {
    db->records_committed({db_contact("003000000000002AAA", "other@example.org")}, 2);
    DiskFullWindow full;
    CHECK_FALSE(db->flush().ok());
    CHECK_FALSE(db->own_changes_written());
  }).join();
  CHECK(db->own_changes_written());
  db->begin_request();
  CHECK_FALSE(db->own_changes_written());
}

TEST_CASE("an empty data file is reported, not seeded over", "[durable]") {
  TempDir dir;
  const std::string path = dir.file("org.db");
  { std::ofstream(path).flush(); }
  std::string error;
  CHECK_FALSE(OrgDatabase::open({path, "shop.yaml", "d1", Sync::kNormal}, error));
  CHECK_THAT(error,
             Catch::Contains("is empty (0 bytes)") && Catch::Contains("Nothing was changed"));
  CHECK(fs::file_size(path) == 0);
}
