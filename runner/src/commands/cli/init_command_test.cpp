// `scenario-runner init`: the files it writes work as written, and it never
// overwrites a user's file.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <sstream>

#include "commands/cli/init_command.h"
#include "commands/cli/run_command.h"
#include "targets/target.h"
#include "testing/temp_dir.h"

using runner::testing::read_file;
using runner::testing::TempDir;

TEST_CASE("init writes a first scenario that passes on the embedded fake", "[runner][init]") {
  TempDir dir("runner_init");
  const std::string target = (dir.path / "newcomer").string();  // created by init
  std::ostringstream out, err;
  REQUIRE(runner::init_command({target}, out, err) == 0);
  CHECK(out.str() == "wrote " + target + "/first_scenario.yaml\nwrote " + target +
                         "/sandbox.yaml\nnext: scenario-runner " + target +
                         "/first_scenario.yaml --verbose\n");
  CHECK(read_file(target + "/first_scenario.yaml") == runner::kInitScenarioYaml);

  runner::RunOptions o;
  o.paths = {target + "/first_scenario.yaml"};
  std::ostringstream run_out, run_err;
  const int code = runner::run_command(o, run_out, run_err);
  INFO(run_out.str() << run_err.str());
  CHECK(code == 0);
  CHECK(run_out.str().find("\n1 passed, 0 failed, 0 skipped\n") != std::string::npos);
}

TEST_CASE("init's sandbox.yaml loads as a sandbox target, secrets from the environment",
          "[runner][init]") {
  TempDir dir("runner_init");
  std::ostringstream out, err;
  REQUIRE(runner::init_command({dir.path.string()}, out, err) == 0);
  const std::string text = read_file(dir.path / "sandbox.yaml");
  CHECK(text.find("client_secret: ${env:ORG_CLIENT_SECRET}") != std::string::npos);
  setenv("ORG_CLIENT_ID", "id", 1);
  setenv("ORG_CLIENT_SECRET", "secret", 1);
  setenv("ORG_REFRESH_TOKEN", "refresh", 1);
  auto target = runner::make_target((dir.path / "sandbox.yaml").string(), {});
  CHECK(target->describe() == "sandbox https://example--uat.sandbox.my.salesforce.com");
}

TEST_CASE("init refuses to overwrite and writes nothing then", "[runner][init]") {
  TempDir dir("runner_init");
  dir.write("sandbox.yaml", "mine\n");
  std::ostringstream out, err;
  CHECK(runner::init_command({dir.path.string()}, out, err) == 2);
  CHECK(err.str() ==
        (dir.path / "sandbox.yaml").string() + " exists already; nothing was written\n");
  CHECK(read_file(dir.path / "sandbox.yaml") == "mine\n");
  CHECK_FALSE(std::filesystem::exists(dir.path / "first_scenario.yaml"));
}
