// `scenario-runner init`: the files it writes work as written, and it never
// overwrites a user's file.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include <unistd.h>
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
  REQUIRE(runner::init_command({target, "build/bin/scenario-runner"}, out, err) == 0);
  const std::string docs = runner::scenario_docs_path();
  CHECK(out.str() ==
        "wrote " + target + "/first_scenario.yaml\nwrote " + target +
            "/sandbox.yaml\nnext: build/bin/scenario-runner " + target +
            " --verbose\n  on your sandbox: build/bin/scenario-runner " + target + " --target " +
            target + "/sandbox.yaml  (export its ${env:...} secrets first)\n  the format: " + docs +
            "\n");
  // The files name the binary by its absolute path: they are read from anywhere.
  const std::string absolute =
      std::filesystem::absolute("build/bin/scenario-runner").lexically_normal().string();
  CHECK(read_file(target + "/first_scenario.yaml") == runner::init_scenario_yaml(absolute));
  CHECK(read_file(target + "/first_scenario.yaml")
            .find("# Run it (in this folder): " + absolute + " ") != std::string::npos);
  // The documentation named is a file on this machine (the clone's, here).
  CHECK(docs == (std::filesystem::path(PROJECT_SOURCE_DIR) / "scenarios/README.md")
                    .lexically_normal()
                    .string());

  // The folder runs as it is: its sandbox.yaml is a target, not a scenario.
  runner::RunOptions o;
  o.paths = {target};
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

TEST_CASE("init says why it cannot write a folder", "[runner][init]") {
  TempDir dir("runner_init");
  dir.write("plain", "a file, not a folder\n");
  std::ostringstream out0, err0;
  CHECK(runner::init_command({(dir.path / "plain" / "tests").string()}, out0, err0) == 2);
  CHECK(err0.str() == "cannot create the folder " + (dir.path / "plain" / "tests").string() +
                          ": not a directory\n");
  if (::geteuid() == 0) return;  // root writes anywhere: no permission to refuse
  std::filesystem::permissions(
      dir.path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  std::ostringstream out, err;
  CHECK(runner::init_command({dir.path.string()}, out, err) == 2);
  CHECK(err.str() ==
        "cannot write " + (dir.path / "first_scenario.yaml").string() + ": permission denied\n");
  std::ostringstream out2, err2;
  CHECK(runner::init_command({(dir.path / "sub").string()}, out2, err2) == 2);
  CHECK(err2.str() ==
        "cannot create the folder " + (dir.path / "sub").string() + ": permission denied\n");
  std::filesystem::permissions(dir.path, std::filesystem::perms::owner_all);
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
