// The parity subcommand as a user runs it: the table, the JSON report, exit
// codes 0 (agree, or only allowed differences), 1 (differ), 2 (usage) and 3
// (nothing compared), and
// the example of docs/record-replay.md.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "commands/parity/parity_command.h"

using namespace runner::parity;

namespace {

const std::string kRoot = PROJECT_SOURCE_DIR;

struct Ran {
  int code;
  std::string out, err;
};

Ran run(const ParityCommandOptions& o) {
  std::ostringstream out, err;
  int code = parity_command(o, out, err);
  return {code, out.str(), err.str()};
}

std::string temp_file(const std::string& name, const std::string& text) {
  auto p = std::filesystem::temp_directory_path() /
           ("parity-cmd-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace

TEST_CASE("parity command: two identical targets agree and exit 0", "[parity]") {
  ParityCommandOptions o;
  o.targets = {"embedded", "embedded"};
  o.paths = {kRoot + "/scenarios/psp", kRoot + "/scenarios/webhooks"};
  Ran r = run(o);
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("parity: A = embedded, B = embedded\n"));
  CHECK_THAT(r.out, Catch::EndsWith("0 difference(s): the targets agree\n"));
}

TEST_CASE("parity command: nothing compared is exit 3, not agreement", "[parity]") {
  // Every scenario of the folder needs the nonprofit fixture; B forces another.
  ParityCommandOptions o;
  o.targets = {"embedded", "embedded:default.yaml"};
  o.paths = {kRoot + "/scenarios/info/nonprofit_connector.yaml"};
  Ran r = run(o);
  INFO(r.out << r.err);
  CHECK(r.code == 3);
  CHECK_THAT(r.out, Catch::EndsWith("nothing was compared\n"));
  CHECK_THAT(r.err, Catch::Contains("parity compared no scenario"));
}

TEST_CASE("parity command: the documented fixture comparison differs (1), allowed it passes (0)",
          "[parity]") {
  // docs/record-replay.md: both sides force a fixture; scenarios of other
  // fixtures are skipped, the rest differ only by the 422/400 statuses.
  ParityCommandOptions o;
  o.targets = {"embedded:default.yaml",
               "embedded:" + kRoot + "/fixtures/parity/error_status_400.yaml"};
  // The folders whose scenarios show it (the whole suite differs the same
  // way, at more steps: parity_test.cpp runs it).
  o.paths = {kRoot + "/scenarios/errors", kRoot + "/scenarios/info"};
  o.jobs = 2;
  o.report_json = temp_file("report.json", "");
  Ran r = run(o);
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("skipped " + kRoot +
                                    "/scenarios/info/nonprofit_connector.yaml: "
                                    "its fixture nonprofit.yaml is not what A forces"));
  CHECK_THAT(r.out, Catch::Contains("SCENARIO / STEP"));
  // The file and step number survive clipping; the step name is what is cut.
  // The 422/400 differences are one group, shown once with its count.
  CHECK_THAT(r.out, Catch::Contains("/scenarios/errors/"));
  CHECK_THAT(r.out, Catch::Contains(".yaml #1 "));
  CHECK_THAT(r.out, Catch::Contains("(first shown)"));
  bool status_row = false;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    status_row = status_row || (line.find("  status  ") != std::string::npos &&
                                line.find("  422  400  x") != std::string::npos);
  CHECK(status_row);
  CHECK(r.out.find("  enum  ") == std::string::npos);
  CHECK(r.out.find("  field  ") == std::string::npos);
  std::ifstream in(o.report_json);
  auto j = nlohmann::json::parse(in);
  const size_t n = j["summary"]["differences"];
  CHECK(n > 0);
  CHECK(j["summary"]["unallowed"] == n);
  for (const auto& d : j["differences"]) CHECK(d["kind"] == "status");

  o.allow = temp_file("allow.yaml",
                      "allow:\n  - reason: this org answers 400 for invalid data\n"
                      "    kind: status\n    a: \"422\"\n    b: \"400\"\n");
  r = run(o);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("allowed: this org answers 400 for invalid data"));
  CHECK_THAT(r.out, Catch::Contains(" difference(s), 1 distinct (" + std::to_string(n) +
                                    " allowed): the targets agree"));
  std::filesystem::remove(o.allow);
  std::filesystem::remove(o.report_json);
}

TEST_CASE("parity command: usage and load errors exit 2", "[parity]") {
  ParityCommandOptions o;
  o.targets = {"embedded"};
  o.paths = {kRoot + "/scenarios/info"};
  Ran r = run(o);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("exactly two --target"));

  o.targets = {"embedded", "embedded"};
  o.allow = temp_file("bad-allow.yaml", "allow:\n  - kind: status\n");
  r = run(o);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("every entry needs a reason"));
  std::filesystem::remove(o.allow);

  o.allow.clear();
  o.paths = {kRoot + "/runner/testdata/bad"};
  r = run(o);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("nothing was compared"));
}
