#pragma once
// An org without a server: the default fixture's, with a still clock and
// reproducible ids, for the tests of the domain (payers, package actions, the
// org's events).
#include <cstdio>
#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "domain/org/org.h"
#include "domain/payers/payer.h"
#include "domain/store/record_store.h"
#include "fixture/fixture_loader.h"

namespace fake_org::testing {

inline TimePoint test_now() {
  return *parse_iso8601("2027-03-01T09:00:00Z");
}

inline OrgConfig default_config() {
  static const FixtureLoad load = load_embedded_fixture("default.yaml");
  INFO(load.error_text());
  REQUIRE(load.ok());
  return *load.config;
}

// The id the org hands out n-th after a reset (ids are sequential per org).
inline std::string new_id(const std::string& prefix, int n) {
  char digits[16];
  std::snprintf(digits, sizeof digits, "%09d", n);
  return *to_id18(prefix + "5J0" + digits);
}

// Seed records of fixtures/default.yaml.
inline const std::string kJane = "0037Q00000JaneDQAR";
inline const std::string kAlex1 = "0037Q00000AlxT1QAJ";
inline const std::string kAlex2 = "0037Q00000AlxT2QAJ";
inline const std::string kGreenfield = "0017Q00000GrnTrQAJ";

struct DomainOrg {
  std::shared_ptr<Org> org;

  // With `state`, the org's changes also go there (as to a data directory).
  explicit DomainOrg(OrgConfig config = default_config(),
                     std::shared_ptr<OrgStateSink> state = nullptr) {
    OrgDeps deps;
    deps.state = std::move(state);
    deps.base_clock = std::make_shared<ManualClock>(test_now());
    deps.random = std::make_shared<SeededRandom>(42);
    auto created = Org::create(std::move(config), deps);
    REQUIRE(created.ok());
    org = created.value();
  }

  // One request: commits when the payer resolves, discards otherwise.
  Result<PayerOutcome> resolve(const nlohmann::json& payer) {
    return org->records().write<PayerOutcome>([&](Transaction& tx) -> Result<PayerOutcome> {
      return resolve_payer(payer, PayerContext{org->config(), tx, org->ids(), test_now()});
    });
  }

  RecordPtr get(const std::string& id) const {
    return org->records().read([&](const RecordStore& s) { return s.get(id); });
  }
  size_t count(const char* object) const {
    return org->records().read([&](const RecordStore& s) { return s.ids_of(object).size(); });
  }
};

// The single error of a failed resolution.
inline ApiError only_error(const Result<PayerOutcome>& r) {
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.errors().size() == 1);
  return r.errors()[0];
}

}  // namespace fake_org::testing
