// An org kept in a database while many threads write and flush at once (also
// run under ThreadSanitizer, ci/tsan): every answered change is on disk, in a
// state the next start reads back whole.
#include <catch2/catch.hpp>

#include <filesystem>
#include <thread>

#include "domain/core/ids.h"
#include "domain/org/org.h"
#include "domain/store/record_store.h"
#include "durable/org_database.h"
#include "fixture/fixture_loader.h"

using namespace fake_org;
using namespace fake_org::durable;
namespace fs = std::filesystem;

namespace {

std::shared_ptr<Org> org_kept_in(const std::shared_ptr<OrgDatabase>& db,
                                 std::shared_ptr<SavedOrg> saved = nullptr) {
  static const FixtureLoad load = load_embedded_fixture("default.yaml");
  REQUIRE(load.ok());
  OrgDeps deps;
  deps.random = std::make_shared<SeededRandom>(7);
  deps.state = db;
  deps.saved = std::move(saved);
  auto org = Org::create(*load.config, deps);
  REQUIRE(org.ok());
  return *org;
}

}  // namespace

TEST_CASE("concurrent writers each find their change on disk once flush returns",
          "[durable][concurrency]") {
  const fs::path dir = fs::temp_directory_path() / ("fake-org-conc-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "org.db").string();
  constexpr int kThreads = 8, kWrites = 40;
  size_t seeded = 0;
  {
    std::string error;
    auto db = OrgDatabase::open({path, "default.yaml", "d", Sync::kNormal}, error);
    REQUIRE(db);
    auto org = org_kept_in(db);
    REQUIRE(db->flush().ok());
    seeded = org->records().size();
    std::atomic<int> failures{0};
    std::vector<std::thread> writers;
    for (int t = 0; t < kThreads; ++t)
      writers.emplace_back([&, t] {
        for (int i = 0; i < kWrites; ++i) {
          auto written = org->records().write_optimistic<Ok>([&](Transaction& tx) -> Status {
            Record r;
            r.object = "Contact";
            r.id = org->ids().record_id("003");
            r.fields = {{"LastName", "T" + std::to_string(t) + "-" + std::to_string(i)}};
            tx.put(std::move(r));
            return ok_status();
          });
          if (!written.ok() || !db->flush().ok()) ++failures;
        }
      });
    for (auto& w : writers) w.join();
    CHECK(failures == 0);
    // Group commit: never more disk transactions than flushes that found work.
    CHECK(db->flushes() <= static_cast<uint64_t>(kThreads * kWrites) + 1);
  }
  std::string error;
  auto db = OrgDatabase::open({path, "default.yaml", "d", Sync::kNormal}, error);
  REQUIRE(db);
  auto saved = db->saved_org(error);
  REQUIRE(saved);
  CHECK(saved->records.size() == seeded + kThreads * kWrites);
  auto org = org_kept_in(db, saved);
  std::set<std::string> names;
  for (const auto& id : org->records().ids_of("Contact"))
    names.insert(org->records().get(id)->text("LastName"));
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kWrites; ++i)
      CHECK(names.count("T" + std::to_string(t) + "-" + std::to_string(i)) == 1);
  // Ids drawn after the restart continue the sequence.
  CHECK(org->ids().sequence() >= static_cast<uint64_t>(kThreads * kWrites));
  fs::remove_all(dir);
}
