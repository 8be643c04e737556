// The official JSON-Schema-Test-Suite (draft7, optional tests included) run
// through the validation core the Checker uses. Every case must pass except
// those listed in contracts/README.md between the test-suite-exclusions
// markers; a listed case that passes fails the test too, so the list stays true.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "core.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kSuite = JSON_SCHEMA_TEST_SUITE_DIR;  // found by contracts/CMakeLists.txt

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The remotes folder served as http://localhost:1234/, and the draft-07
// meta-schema that definitions.json and ref.json reference.
std::optional<json> fetch(const std::string& uri) {
  const std::string remote = "http://localhost:1234/";
  if (uri.rfind(remote, 0) == 0) {
    fs::path file = kSuite / "remotes" / uri.substr(remote.size());
    if (!fs::is_regular_file(file)) return std::nullopt;
    return json::parse(read_file(file));
  }
  if (uri == "http://json-schema.org/draft-07/schema") {
    return json::parse(read_file(fs::path(PROJECT_SOURCE_DIR) /
                                 "contracts/checker/testdata/json-schema-draft-07.json"));
  }
  return std::nullopt;
}

// "file / group / test" ids of the README's exclusion table rows.
std::map<std::string, std::string> exclusions() {
  std::istringstream readme(read_file(fs::path(PROJECT_SOURCE_DIR) / "contracts/README.md"));
  std::map<std::string, std::string> out;
  bool inside = false;
  for (std::string line; std::getline(readme, line);) {
    if (line.find("test-suite-exclusions:begin") != std::string::npos) inside = true;
    if (line.find("test-suite-exclusions:end") != std::string::npos) inside = false;
    if (!inside || line.rfind("| `", 0) != 0) continue;
    // | `file` / `group` / `test` | reason |
    std::vector<std::string> parts;
    size_t pos = 0;
    while ((pos = line.find('`', pos)) != std::string::npos) {
      size_t end = line.find('`', pos + 1);
      if (end == std::string::npos) break;
      size_t bar = line.find(" | ", 1);
      if (pos > bar) break;
      parts.push_back(line.substr(pos + 1, end - pos - 1));
      pos = end + 1;
    }
    if (parts.size() != 3) continue;
    size_t reason_at = line.find(" | ", 1);
    std::string reason = line.substr(reason_at + 3);
    out[parts[0] + " / " + parts[1] + " / " + parts[2]] = reason.substr(0, reason.rfind(" |"));
  }
  return out;
}

}  // namespace

TEST_CASE("JSON-Schema-Test-Suite draft7 passes but for the listed cases", "[test-suite]") {
  REQUIRE(fs::is_directory(kSuite / "tests/draft7"));
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(kSuite / "tests/draft7")) {
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 50);

  const std::map<std::string, std::string> excluded = exclusions();
  REQUIRE(!excluded.empty());
  size_t total = 0, passed = 0;
  std::vector<std::string> unexpected_failures, unexpected_passes;
  std::set<std::string> found;

  for (const fs::path& file : files) {
    std::string name = fs::relative(file, kSuite / "tests/draft7").generic_string();
    json groups = json::parse(read_file(file));
    for (size_t g = 0; g < groups.size(); ++g) {
      const json& group = groups[g];
      std::shared_ptr<const contracts::core::CompiledSchema> schema;
      std::string compile_error;
      try {
        schema = contracts::core::CompiledSchema::compile(
            group["schema"], "http://localhost:1234/__suite__/" + name + "/" + std::to_string(g),
            fetch);
      } catch (const std::exception& e) {
        compile_error = e.what();
      }
      for (const json& test : group["tests"]) {
        ++total;
        std::string id = name + " / " + group["description"].get<std::string>() + " / " +
                         test["description"].get<std::string>();
        found.insert(id);
        bool ok = false;
        if (schema) {
          bool verdict = schema->validate(test["data"]).empty();
          // The fast path (stop at the first failure) must agree with the full report.
          CHECK(verdict == schema->is_valid(test["data"]));
          ok = verdict == test["valid"].get<bool>();
        }
        if (ok) ++passed;
        bool listed = excluded.count(id) > 0;
        if (!ok && !listed) {
          unexpected_failures.push_back(id +
                                        (compile_error.empty() ? "" : " (" + compile_error + ")"));
        }
        if (ok && listed) unexpected_passes.push_back(id);
      }
    }
  }
  std::vector<std::string> stale;
  for (const auto& [id, reason] : excluded) {
    if (!found.count(id)) stale.push_back(id);
  }
  std::cout << "JSON-Schema-Test-Suite draft7: " << passed << " of " << total << " cases pass; "
            << excluded.size() << " listed as known failures in contracts/README.md\n";
  // Unwrapped, so that rows can be copied into the README's table.
  for (const auto& id : unexpected_failures) std::cout << "unlisted failure: " << id << "\n";
  for (const auto& id : unexpected_passes) std::cout << "listed but passing: " << id << "\n";
  auto join = [](const std::vector<std::string>& ids) {
    std::string s;
    for (const auto& id : ids) s += "\n  " + id;
    return s;
  };
  {
    INFO("failing but not listed in contracts/README.md:" << join(unexpected_failures));
    CHECK(unexpected_failures.empty());
  }
  {
    INFO("listed in contracts/README.md but passing (remove them):" << join(unexpected_passes));
    CHECK(unexpected_passes.empty());
  }
  {
    INFO("listed in contracts/README.md but not in the suite:" << join(stale));
    CHECK(stale.empty());
  }
  CHECK(passed + excluded.size() == total);
}
