// A throwaway org on a fake-org URL says which runner made it, and lives
// no longer than it must if that runner is killed.
#include <catch2/catch.hpp>

#include "app/embedded.h"
#include "fixture/fixture_loader.h"
#include "testing/run_helpers.h"

using namespace runner;
using namespace runner::testing;

TEST_CASE("url target: each throwaway org names its runner and has a time to live",
          "[runner][targets][orgs]") {
  auto config = fake_org::load_embedded_fixture("default.yaml");
  REQUIRE(config.ok());
  fake_org::EmbeddedOptions options;
  options.max_orgs = 4;
  auto org = fake_org::EmbeddedOrg::start(*config.config, options);
  auto target = make_target(org->base_url(), {});
  // The admin API's org list is the server's, under any org's prefix.
  ScenarioResult r = run_text(*target, R"(name: who made me
steps:
  - request: GET /__admin/orgs
    expect:
      json:
        orgs:
          $contains:
            root: false
            ttl_seconds: 1800
            created_by: {$regex: "^scenario-runner [0-9]+( on .+)?: test0[.]yaml$"}
            expires_at: {$type: string}
)");
  INFO(r.error);
  CHECK(r.outcome == Outcome::kPassed);
  CHECK(org->sites().size() == 1);  // and it was deleted at the end all the same
}
