// scenarios/schema/scenario.schema.json agrees with the loader: the files the
// loader accepts validate, and shapes it rejects do not.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "checker/checker.h"
#include "json/yaml_json.h"
#include "scenario/loader.h"
#include "testing/temp_dir.h"

using namespace runner;
namespace fs = std::filesystem;

using runner::testing::read_file;

namespace {

// The checker's validator (valijson) rejects every object under a
// "propertyNames" subschema, without detail; python-jsonschema accepts these
// files with it. propertyNames only guards variable names, which the loader
// checks anyway, so the test leaves it out.
void strip_property_names(nlohmann::json& j) {
  if (j.is_object()) j.erase("propertyNames");
  if (j.is_structured())
    for (auto& v : j) strip_property_names(v);
}

// The contract checker insists on its own $id base; the schema keeps its own
// for editors, so the test swaps it in.
std::shared_ptr<const contracts::Checker> schema() {
  static auto checker = [] {
    auto doc = nlohmann::json::parse(
        read_file(fs::path(PROJECT_SOURCE_DIR) / "scenarios/schema/scenario.schema.json"));
    doc["$id"] = "https://schemas.fake-crm-org.invalid/cpm/v2/scenario.json";
    strip_property_names(doc);
    return contracts::Checker::from_files({{"scenario.json", doc.dump()}},
                                          contracts::Profile::kStrict);
  }();
  return checker;
}

contracts::CheckResult validate(const std::string& yaml) {
  return schema()->validate("scenario", yaml_to_json(YAML::Load(yaml)));
}

}  // namespace

TEST_CASE("scenario files the loader accepts validate against the JSON Schema",
          "[runner][schema]") {
  int files = 0;
  for (const char* dir : {"runner/testdata/pass", "runner/testdata/fail", "scenarios"}) {
    fs::path root = fs::path(PROJECT_SOURCE_DIR) / dir;
    if (!fs::exists(root)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (e.path().extension() != ".yaml" ||
          e.path().string().find("/schema/") != std::string::npos)
        continue;
      LoadResult loaded = load_scenario_file(e.path().string());
      if (!loaded.ok()) continue;
      ++files;
      contracts::CheckResult r = validate(read_file(e.path()));
      INFO(e.path().string() << "\n" << r.report());
      CHECK(r.ok());
    }
  }
  CHECK(files >= 4);
}

TEST_CASE("the JSON Schema rejects what the loader rejects", "[runner][schema]") {
  CHECK(validate("name: x\nsteps: [{request: GET /x, psp: {session: s, outcome: success}}]\n")
            .violations.size() > 0);
  CHECK_FALSE(validate("name: x\nsteps: []\n").ok());
  CHECK_FALSE(validate("steps: [{clock: {advance: 1d}}]\n").ok());
  CHECK_FALSE(validate("name: x\nsteps: [{psp: {session: s, outcome: refund}}]\n").ok());
  CHECK_FALSE(validate("name: x\nsteps: [{request: GET /x, expect: {jsom: {}}}]\n").ok());
  CHECK(validate("name: x\nsteps: [{request: GET /x, expect: {status: {$oneOf: [200, 201]}}}]\n")
            .ok());
}
