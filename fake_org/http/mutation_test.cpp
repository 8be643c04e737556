// Black-box mutation over HTTP: thousands of bodies made from the contract
// examples by flipping, cutting, repeating and splicing bytes, sent to a
// running org. Whatever arrives, the answer is below 500, a JSON body that
// parses, and a refused request leaves the record counts as they were. The
// mutations come from a fixed seed, so a failure names a body that fails
// again on the next run (the fuzz targets explore beyond, ci/fuzz).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "domain/store/record_store.h"
#include "testing/test_org.h"
#include "yaml/yaml_input.h"

using namespace fake_org;
using namespace fake_org::testing;

namespace {

std::vector<std::string> example_bodies(const std::string& folder) {
  std::vector<std::string> out;
  const std::filesystem::path root = std::filesystem::path(PROJECT_SOURCE_DIR) / folder;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    out.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// One mutation of `s`: the kinds a buggy or hostile client produces.
std::string mutate(std::string s, std::mt19937& rng) {
  static const std::vector<std::string> tokens = {"{",
                                                  "}",
                                                  "[",
                                                  "]",
                                                  ",",
                                                  ":",
                                                  "\"",
                                                  "\\",
                                                  "null",
                                                  "true",
                                                  "-1",
                                                  "1e309",
                                                  "0.000001",
                                                  "\"\xff\"",
                                                  "\"\\ud800\"",
                                                  "\"Amount\":",
                                                  "\"OneTime\":{}",
                                                  "\"Payer\":",
                                                  "{\"Id\":\"x\"}",
                                                  std::string(1, '\0'),
                                                  "\xc3",
                                                  "99999999999999999999",
                                                  "\"\"",
                                                  "[[[[[[[[",
                                                  "\"x\":1,\"x\":2"};
  if (s.empty()) s = "{}";
  auto at = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n)(rng); };
  const int rounds = 1 + static_cast<int>(at(3));
  for (int r = 0; r < rounds; ++r) {
    switch (at(5)) {
      case 0:  // flip a byte
        s[at(s.size() - 1)] = static_cast<char>(at(255));
        break;
      case 1:  // cut the body short
        s.resize(at(s.size()));
        break;
      case 2:  // insert a token
        s.insert(at(s.size()), tokens[at(tokens.size() - 1)]);
        break;
      case 3: {  // repeat a slice
        size_t from = at(s.size()), len = at(std::min<size_t>(64, s.size() - from));
        s.insert(at(s.size()), s.substr(from, len));
        break;
      }
      case 4: {  // drop a slice
        size_t from = at(s.size()), len = at(std::min<size_t>(32, s.size() - from));
        s.erase(from, len);
        break;
      }
      default:  // replace a number or string by a token
        s.replace(at(s.size()), 1, tokens[at(tokens.size() - 1)]);
        break;
    }
    if (s.empty()) s = "{";
  }
  return s;
}

size_t record_total(TestOrg& t) {
  return t.org().records().read([](const RecordStore& store) { return store.size(); });
}

}  // namespace

TEST_CASE("mutated bodies never get a 5xx, always clean JSON, and change nothing when refused",
          "[http][hostile][mutation]") {
  TestOrg t(fixture("default.yaml"));
  struct Target {
    std::string path;
    std::vector<std::string> seeds;
  };
  const std::vector<Target> targets = {
      {"/PaymentIntent", example_bodies("contracts/examples/payment_intent_request")},
      {"/Payment", example_bodies("contracts/examples/payment_request")},
  };
  std::mt19937 rng(20261126);
  int sent = 0, refused = 0, accepted = 0;
  for (int i = 0; i < 3000; ++i) {
    const Target& target = targets[static_cast<size_t>(i) % targets.size()];
    REQUIRE_FALSE(target.seeds.empty());
    const std::string body =
        mutate(target.seeds[static_cast<size_t>(rng()) % target.seeds.size()], rng);
    const size_t before = record_total(t);
    auto r = t.post_raw(target.path, body);
    ++sent;
    INFO("POST " << target.path << " with "
                 << nlohmann::json(body).dump(-1, ' ', true,
                                              nlohmann::json::error_handler_t::replace));
    INFO("answer " << r.status << ": " << r.body.substr(0, 400));
    REQUIRE(r.status < 500);
    REQUIRE(common::first_invalid_utf8(r.body) == std::string::npos);
    REQUIRE_FALSE(r.json.is_discarded());
    const bool refused_here =
        r.status >= 400 ||
        (r.json.is_object() && r.json.contains("IsSuccess") && r.json["IsSuccess"] == false);
    if (refused_here) {
      ++refused;
      REQUIRE(record_total(t) == before);
    } else {
      ++accepted;
    }
    if (i % 500 == 499) t.post("/__admin/reset", nlohmann::json::object(), false);
  }
  CHECK(sent == 3000);
  CHECK(refused > 1000);  // the mutations do reach the error paths
  CHECK(accepted > 0);    // and some still pass, so the deep paths run too
}
