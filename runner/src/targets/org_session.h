#pragma once
// One scenario's connection to an org: where its API and OAuth endpoints are,
// the runner's bearer token, and the fake's admin API when there is one.
// Used by one thread (the scenario's); the TokenProvider may be shared.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "net/http_client.h"
#include "scenario/model.h"
#include "targets/token_provider.h"

namespace runner {

// How to send a request again after the run, by hand: shell lines that set
// $TOKEN (the runner's own token is never printed), and the org's URL, which
// replaces instance_url. When the org does not outlive the run (the embedded
// fake, on a port that is gone) the lines first start an org like it.
struct Reproduction {
  std::string setup;         // shell lines, each ending in "\n"
  std::string instance_url;  // http://127.0.0.1:8080
  bool org_stops = false;    // the scenario's org stops with it; setup starts another
  // Shell lines after the request: what setup made goes again (the repro
  // org deleted, the started fake-org stopped), so trying twice works.
  std::string teardown;
  // When setup learns the org's URL only as it runs (a fake-org on a free
  // port): the shell variable holding it, which stands for instance_url in
  // every command ("$ORG"'/services/...').
  std::string url_variable;
};

struct SessionConfig {
  std::string instance_url;         // scheme://host:port
  std::string api_base;             // instance_url + /services/apexrest/cpm/v2
  bool admin = false;               // the fake's /__admin API is reachable
  std::string webhook_public_base;  // empty: the receiver's loopback URL
  TlsOptions tls;
  std::optional<Reproduction> reproduce;  // none: the org outlives the run
  std::string api_version = "59.0";       // the REST data API's, for query steps
};

struct SentRequest {
  HttpRequest request;  // as finally sent
  HttpResponse response;
  std::string token;       // the bearer token used, "" without auth
  bool refreshed = false;  // a 401 made the runner refresh its token and retry
  // The session's reproduction, with request.url moved to its org.
  std::optional<Reproduction> reproduce;
  std::string reproduce_url;
  std::string ca_file;  // the CA the session trusts, for the reproduction's curl
};

class OrgSession {
 public:
  // `keepalive` owns whatever serves the org (the embedded fake) for as long
  // as the session lives.
  OrgSession(SessionConfig config, std::shared_ptr<TokenProvider> tokens,
             std::shared_ptr<void> keepalive = nullptr);

  const SessionConfig& config() const { return config_; }
  // api_base + path, or instance_url + path for /services/... and /__admin paths.
  std::string url_for(const std::string& path) const;

  // Adds the bearer token when `with_auth` and no Authorization header is set;
  // a 401 on such a request refreshes the token once and retries. Throws
  // HttpError (no response) or TargetError (no token).
  SentRequest send(HttpRequest request, bool with_auth, Millis timeout);
  // A JSON call to the fake's admin API. Throws TargetError without one.
  SentRequest admin(const std::string& method, const std::string& path,
                    const nlohmann::json& body = nullptr);

  // The org's date and instant: from the fake's clock, else this machine's (UTC).
  std::string today();
  std::string now();

  // The serving org's own contract self-check (the embedded fake's monitor):
  // what it recorded so far, "" when nothing. Orgs that cannot tell have none.
  using SelfCheck = std::function<std::string()>;
  void set_self_check(SelfCheck check) { self_check_ = std::move(check); }
  std::string self_check() const { return self_check_ ? self_check_() : std::string(); }

 private:
  // Declared first so it is destroyed last: the org must outlive every
  // client connection to it, or its server waits out their keep-alive.
  std::shared_ptr<void> keepalive_;
  SessionConfig config_;
  std::shared_ptr<TokenProvider> tokens_;
  HttpClient http_;
  SelfCheck self_check_;
};

}  // namespace runner
