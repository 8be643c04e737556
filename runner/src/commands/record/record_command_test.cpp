// `scenario-runner record` as a user runs it: the binary as a separate
// process in front of a fake-org, stopped by --max-requests or by SIGINT,
// writing a scenario that loads and replays; usage mistakes exit 2.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include <httplib.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "commands/record/record_command.h"
#include "testing/child_process.h"
#include "testing/run_helpers.h"
#include "testing/temp_dir.h"

using namespace runner;
using namespace runner::testing;
namespace fs = std::filesystem;

namespace {

const std::string kBin = FAKE_ORG_BIN_DIR;

bool binaries_built() {
  return fs::exists(kBin + "/fake-org") && fs::exists(kBin + "/scenario-runner");
}

std::string after(const std::string& line, const std::string& prefix) {
  REQUIRE(line.rfind(prefix, 0) == 0);
  return line.substr(prefix.size());
}

// "listening on http://127.0.0.1:PORT (recording ...)" -> PORT
int proxy_port(const std::string& line) {
  std::string rest = after(line, "listening on http://127.0.0.1:");
  return std::stoi(rest.substr(0, rest.find(' ')));
}

// A client's first two calls through the proxy: a token, then an API read.
void token_and_read(int port) {
  httplib::Client c("127.0.0.1", port);
  auto tok =
      c.Post("/services/oauth2/token",
             "grant_type=client_credentials&client_id=local-client&client_secret=local-secret",
             "application/x-www-form-urlencoded");
  REQUIRE(tok);
  REQUIRE(tok->status == 200);
  const std::string token = nlohmann::json::parse(tok->body)["access_token"];
  auto pm =
      c.Get("/services/apexrest/cpm/v2/PaymentMethods", {{"Authorization", "Bearer " + token}});
  REQUIRE(pm);
  REQUIRE(pm->status == 200);
}

}  // namespace

TEST_CASE("record command: --max-requests writes the scenario and exits 0", "[record][process]") {
  if (!binaries_built()) {
    WARN("fake-org or scenario-runner is not built");
    return;
  }
  TempDir dir("runner_record_cmd");
  ChildProcess upstream({kBin + "/fake-org", "--port", "0", "--log-level", "quiet"});
  const std::string url = after(upstream.read_line(), "listening on ");
  const fs::path out = dir.path / "recorded.yaml";
  ChildProcess rec({kBin + "/scenario-runner", "record", "--upstream", url, "--listen",
                    "127.0.0.1:0", "--out", out.string(), "--max-requests", "2", "--fixture",
                    "default.yaml", "--name", "two calls"});
  token_and_read(proxy_port(rec.read_line()));
  const std::string rest = rec.read_rest();
  INFO(rest);
  REQUIRE(rec.wait() == 0);
  CHECK(contains(rest, "2 exchange(s) recorded"));
  CHECK(contains(rest, "ORG_CLIENT_SECRET"));  // the replay's environment is listed

  const std::string text = read_file(out);
  INFO(text);
  CHECK(!contains(text, "local-secret"));
  Scenario s = load_text(text, out.string());
  CHECK(s.name == "two calls");
  CHECK(s.fixture == "default.yaml");
  REQUIRE(s.steps.size() == 2);
  setenv("ORG_CLIENT_SECRET", "local-secret", 1);
  auto target = make_embedded_target();
  ScenarioResult r = run_text(*target, text);
  INFO(r.error);
  CHECK(r.outcome == Outcome::kPassed);
}

TEST_CASE("record command: SIGINT stops recording and writes what was recorded",
          "[record][process]") {
  if (!binaries_built()) {
    WARN("fake-org or scenario-runner is not built");
    return;
  }
  TempDir dir("runner_record_cmd");
  ChildProcess upstream({kBin + "/fake-org", "--port", "0", "--log-level", "quiet"});
  const std::string url = after(upstream.read_line(), "listening on ");
  const fs::path out = dir.path / "interrupted.yaml";
  ChildProcess rec({kBin + "/scenario-runner", "record", "--upstream", url, "--listen",
                    "127.0.0.1:0", "--out", out.string()});
  token_and_read(proxy_port(rec.read_line()));
  rec.signal(SIGINT);
  const std::string rest = rec.read_rest();
  INFO(rest);
  REQUIRE(rec.wait() == 0);
  CHECK(contains(rest, "2 exchange(s) recorded"));
  REQUIRE(fs::exists(out));
  Scenario s = load_text(read_file(out), out.string());
  CHECK(s.steps.size() == 2);
  CHECK(contains(s.name, url));  // default name: "recorded from URL"
}

TEST_CASE("record command: stopped before any exchange, it writes nothing and exits 2",
          "[record][process]") {
  // A scenario without steps does not load, and --out may hold an earlier
  // recording: it must stay as it was.
  if (!binaries_built()) {
    WARN("fake-org or scenario-runner is not built");
    return;
  }
  TempDir dir("runner_record_cmd");
  const std::string earlier = "name: an earlier recording\nsteps:\n  - request: GET /x\n";
  const std::string out = dir.write("earlier.yaml", earlier);
  // Through sh for stderr on the same pipe; exec keeps the pid the signal goes to.
  ChildProcess rec({"/bin/sh", "-c",
                    "exec '" + kBin +
                        "/scenario-runner' record --upstream http://127.0.0.1:9 --listen "
                        "127.0.0.1:0 --out '" +
                        out + "' 2>&1"});
  proxy_port(rec.read_line());
  rec.signal(SIGINT);
  const std::string rest = rec.read_rest();
  INFO(rest);
  CHECK(rec.wait() == 2);
  CHECK(contains(rest, "0 exchange(s) recorded"));
  CHECK(contains(rest, "recorded no exchange; " + out + " left as it was"));
  CHECK(read_file(out) == earlier);

  const std::string none = (dir.path / "none.yaml").string();
  ChildProcess rec2({"/bin/sh", "-c",
                     "exec '" + kBin +
                         "/scenario-runner' record --upstream http://127.0.0.1:9 --listen "
                         "127.0.0.1:0 --out '" +
                         none + "' 2>&1"});
  proxy_port(rec2.read_line());
  rec2.signal(SIGINT);
  const std::string rest2 = rec2.read_rest();
  INFO(rest2);
  CHECK(rec2.wait() == 2);
  CHECK(contains(rest2, "recorded no exchange; " + none + " not written"));
  CHECK_FALSE(fs::exists(none));
}

TEST_CASE("record command: requests the upstream did not answer are counted at the end",
          "[record][process]") {
  if (!binaries_built()) {
    WARN("fake-org or scenario-runner is not built");
    return;
  }
  TempDir dir("runner_record_cmd");
  auto upstream = std::make_unique<ChildProcess>(
      std::vector<std::string>{kBin + "/fake-org", "--port", "0", "--log-level", "quiet"});
  const std::string url = after(upstream->read_line(), "listening on ");
  const fs::path out = dir.path / "partly.yaml";
  ChildProcess rec({kBin + "/scenario-runner", "record", "--upstream", url, "--listen",
                    "127.0.0.1:0", "--out", out.string()});
  const int port = proxy_port(rec.read_line());
  token_and_read(port);
  upstream.reset();  // the upstream is gone: the next request gets no answer
  httplib::Client c("127.0.0.1", port);
  auto r = c.Get("/services/apexrest/cpm/v2/PaymentMethods");
  REQUIRE(r);
  CHECK(r->status == 502);
  rec.signal(SIGINT);
  const std::string rest = rec.read_rest();
  INFO(rest);
  REQUIRE(rec.wait() == 0);
  CHECK(contains(rest, "2 exchange(s) recorded; 1 request(s) the upstream did not answer"));
}

TEST_CASE("record command: usage mistakes exit 2 before listening", "[record]") {
  record::RecordOptions o;
  o.out = "never-written.yaml";
  std::ostringstream out, err;
  CHECK(record::record_command(o, out, err) == 2);
  CHECK(contains(err.str(), "give --upstream URL"));
  o.upstream = "http://127.0.0.1:9";
  o.listen = "no-port";
  err.str("");
  CHECK(record::record_command(o, out, err) == 2);
  CHECK(contains(err.str(), "--listen takes HOST:PORT"));
  CHECK(out.str().empty());
  CHECK(!fs::exists("never-written.yaml"));
}
