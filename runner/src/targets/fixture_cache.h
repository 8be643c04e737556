#pragma once
// The org configurations scenarios ask for, loaded once per run.
//
// Locking: load_all() runs before any scenario starts; afterwards the cache is
// only read, from any number of threads.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "domain/config/org_config.h"
#include "scenario/loader.h"
#include "targets/token_provider.h"

namespace runner {

class FixtureCache {
 public:
  // Loads every distinct fixture; a fixture that does not load is reported at
  // the `fixture:` line of each scenario naming it, with the fixture's errors.
  std::vector<LoadError> load_all(const std::vector<const Scenario*>& scenarios);
  // nullptr when load_all() did not load it.
  const fake_org::OrgConfig* get(const Scenario& scenario) const;
  // The fixture file path, or the embedded fixture's name ("default.yaml" when unnamed).
  static std::string key(const Scenario& scenario);

 private:
  std::map<std::string, fake_org::OrgConfig> configs_;
};

// A fixture named on the command line (`parity --target embedded:F`, what a
// running fake-org serves): a file, `embedded:NAME`, or a shipped fixture's
// bare name ("package.yaml"), a file of that name winning.
struct FixtureLineage {
  std::string fixture;  // as a scenario names it: the file's path or the shipped name
  bool file = false;    // `fixture` is a file path
  // The file names of the fixture and of those it extends, nearest first
  // ("package.yaml", "default.yaml"); only the fixture's own when it does not load.
  std::vector<std::string> names;
  std::string api_version;  // the REST data API's, "" when it does not load
  std::string error;        // why it does not load
};
FixtureLineage fixture_lineage(const std::string& fixture);

// The runner's token source for a fake org: client_credentials with the
// fixture's first connected app. Throws TargetError when it has none.
// The reproduction's line that sets $TOKEN the way fixture_client_credentials
// takes one (the fixture's secrets are test values, printed as they are).
std::string fixture_token_line(const fake_org::OrgConfig& config, const std::string& instance_url,
                               const std::string& ca_file = "");
std::shared_ptr<TokenProvider> fixture_client_credentials(const fake_org::OrgConfig& config,
                                                          const std::string& instance_url,
                                                          const TlsOptions& tls);

}  // namespace runner
