// The contract profile of one scenario: an embedded org whose fixture answers
// in the real package's layouts (`org.response_style: package`, decisions 68)
// is checked with the lenient profile, unless --profile chooses.
#include <catch2/catch.hpp>

#include "testing/run_helpers.h"

using namespace runner;
using namespace runner::testing;

TEST_CASE("a scenario of an org in the package's layouts is checked with the lenient profile",
          "[runner][targets][response_style]") {
  const std::string text = R"(name: package envelope
fixture: package.yaml
steps:
  - request: GET /PackageActions
    expect: {json: {ResponseCode: "001"}}
)";
  auto target = make_embedded_target();
  Scenario s = load_text(text);
  Scenario spec = load_text("name: spec\nsteps:\n  - request: GET /PackageActions\n");
  REQUIRE(target->prepare({&s, &spec}).empty());
  CHECK(target->scenario_profile(s) == contracts::Profile::kLenient);
  CHECK_FALSE(target->scenario_profile(spec).has_value());
  // Run as the target says it passes; forced to strict, the envelope breaks the contract.
  CHECK(run_text(*make_embedded_target(), text).outcome == Outcome::kPassed);
  SuiteOptions strict;
  strict.profile = contracts::Profile::kStrict;
  auto strict_target = make_embedded_target();
  RunResult forced = run_texts(*strict_target, {text}, strict);
  REQUIRE(forced.scenarios.size() == 1);
  CHECK(forced.scenarios[0].outcome == Outcome::kFailed);
}
