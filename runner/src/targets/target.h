#pragma once
// Where scenarios run: the embedded fake (default), a running fake-org at a
// URL, or a real sandbox org described by a YAML file.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "scenario/loader.h"
#include "targets/org_session.h"

namespace runner {

class Target {
 public:
  virtual ~Target() = default;
  virtual std::string describe() const = 0;
  // False when scenarios share one org and so must run one at a time.
  virtual bool parallel() const = 0;
  virtual contracts::Profile default_profile() const = 0;
  // The profile one scenario needs instead of default_profile(): the
  // embedded org of a fixture answering in the real package's layouts
  // (`org.response_style: package`) is checked against the lenient one.
  virtual std::optional<contracts::Profile> scenario_profile(const Scenario&) const {
    return std::nullopt;
  }
  // Problems found before anything runs (a fixture that does not load), as
  // load errors so they are reported like scenario mistakes.
  virtual std::vector<LoadError> prepare(const std::vector<const Scenario*>& scenarios) = 0;
  // Why this target cannot run the scenario, if it cannot.
  virtual std::optional<std::string> skip_reason(const Scenario& scenario) const = 0;
  // Why the scenario's fixture does not fit the one org configuration this
  // target has (a sandbox's `fixture:`, what a running fake-org serves); the
  // first part of skip_reason(). Targets that make an org per scenario fit all.
  virtual std::optional<std::string> fixture_mismatch(const Scenario&) const {
    return std::nullopt;
  }
  // What a running fake-org serves at its root (known after prepare()): its
  // fixture as it names it ("embedded:default.yaml", a path) and its REST
  // data API version. Targets that make an org per scenario serve none.
  struct Served {
    std::string fixture;
    std::string api_version;
  };
  virtual std::optional<Served> served() const { return std::nullopt; }
  // A connection for one scenario run. Throws TargetError.
  virtual std::unique_ptr<OrgSession> open(const Scenario& scenario) = 0;
};

struct TargetOptions {
  std::string ca_file;  // --ca-file: trust this CA (HTTPS targets)
};

// "embedded", "http(s)://host:port" or a sandbox .yaml file. Throws TargetError.
std::unique_ptr<Target> make_target(const std::string& spec, const TargetOptions& options);

// What a sandbox configuration says about reaching the org, for the
// recording proxy (scenario-runner record --upstream-config). Throws TargetError.
struct SandboxUpstream {
  std::string instance_url;
  std::string api_path;
  OAuthGrant grant;
  TlsOptions tls;
};
SandboxUpstream read_sandbox_upstream(const std::string& config_file, const TargetOptions& options);

// `contract_self_check`: the embedded fake validates what it sends against
// the strict contracts and a violation fails the scenario (off for parity,
// which compares orgs that break the contract on purpose).
std::unique_ptr<Target> make_embedded_target(bool contract_self_check = true);
// Several targets of one org configuration each (`--target` repeated: sandbox
// configurations or fake-org URLs, one per fixture): every scenario runs on
// the first whose fixture fits it. Throws TargetError when `targets` is empty.
std::unique_ptr<Target> make_routed_target(std::vector<std::unique_ptr<Target>> targets);
std::unique_ptr<Target> make_url_target(const std::string& url, const TargetOptions& options);
std::unique_ptr<Target> make_sandbox_target(const std::string& config_file,
                                            const TargetOptions& options);

}  // namespace runner
