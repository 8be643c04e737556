// The handler groups the build listed from http/*.cpp (http/routes.h): each
// registers handlers no other group does, and together they are every row
// of the route table, which is what all_handlers mounts.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>

#include "admin/admin.h"
#include "app/org_factory.h"
#include "checker/route_table.h"
#include "fixture/fixture_loader.h"
#include "http/data_api.h"
#include "http/fault_injector.h"
#include "http/request_journal.h"
#include "http/routes.h"

using namespace fake_org;
using namespace fake_org::http;

TEST_CASE("every handler group registers handlers of its own", "[routes]") {
  auto load = load_embedded_fixture("default.yaml");
  REQUIRE(load.ok());
  auto built = app::build_org(*load.config);
  REQUIRE(built.ok());
  const OrgServices services = *built;
  RequestJournal journal(services.org->config().base_path());
  FaultInjector faults;
  const HandlerContext context{services,
                               *services.org,
                               journal,
                               faults,
                               false,
                               nullptr,
                               std::make_shared<admin::Admin>(services.org),
                               std::make_shared<ApiUsage>(),
                               std::make_shared<SiteRouter>(),
                               nullptr,
                               nullptr};

  REQUIRE_FALSE(handler_groups().empty());
  std::set<std::string> names;
  std::map<std::string, std::string> group_of;  // operationId -> its group
  for (const HandlerGroup& group : handler_groups()) {
    INFO("group " << group.name << " of " << group.file);
    CHECK(names.insert(group.name).second);
    CHECK(std::filesystem::is_regular_file(std::filesystem::path(PROJECT_SOURCE_DIR) / "fake_org" /
                                           group.file));
    Handlers handlers;
    group.add(handlers, context);
    const std::vector<std::string> ids = handlers.operation_ids();
    CHECK_FALSE(ids.empty());
    for (const std::string& id : ids) {
      auto [at, fresh] = group_of.emplace(id, group.name);
      INFO(id << " is also registered by group " << at->second);
      CHECK(fresh);
    }
  }

  std::set<std::string> rows, registered;
  for (const auto& row : contracts::route_table().rows) rows.insert(row.operation_id);
  for (const auto& [id, group] : group_of) registered.insert(id);
  CHECK(registered == rows);
  CHECK(all_handlers(services, journal, faults, false).operation_ids().size() == rows.size());
}
