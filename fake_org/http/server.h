#pragma once
// The fake org's HTTP server: cpp-httplib's routing on fake-org's own
// connection loop (net::ConnectionServer, plain or TLS) with request logging,
// bearer authentication for the API, JSON 404/405 answers, the OAuth
// endpoints and the admin API.
//
// Locking rule: Server's own fields are written before start() and only read
// afterwards; per-request state lives on the worker thread's stack (and the
// thread-local RequestLogContext). The org, the request journal and the
// fault injector guard their own state.
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "admin_guard.h"
#include "org_services.h"
#include "org_sites.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace fake_org {
class ContractMonitor;
}

namespace fake_org::net {
class ConnectionServer;
}

namespace fake_org::http {

// The admin API answers only these callers unless --admin-open: IPv4
// 127.0.0.0/8, IPv6 ::1 and IPv4-mapped 127.x.
bool is_loopback(std::string_view remote_addr);

enum class LogLevel { kQuiet, kError, kInfo, kDebug };
bool parse_log_level(std::string_view s, LogLevel& out);

// The request log's line (and, at debug, the bodies' lines) for a request
// served in `ms`, with every control byte the client sent escaped (\xHH).
std::string request_log_line(LogLevel level, const httplib::Request& req,
                             const httplib::Response& res, double ms);

// Connection limits (docs/decisions.md): an idle keep-alive connection is
// closed after kKeepAliveSeconds, a connection that sends nothing for
// kReadTimeoutSeconds in the middle of a request is dropped.
inline constexpr int kKeepAliveSeconds = 5;
inline constexpr int kReadTimeoutSeconds = 5;

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                             // 0: any free port
  int threads = 0;                             // workers kept ready; 0: sized for the machine
  int max_connections = 4096;                  // served at once (a worker each); more wait
  int keep_alive_seconds = kKeepAliveSeconds;  // an idle connection's life
  // Requests whose handlers run at once; more wait their turn (decision 133).
  // 0: 4 per core, at least 4.
  int max_running_requests = 0;
  // A request's head must be whole this long after its first byte
  // (--head-timeout, seconds), and one peer address may hold at most this
  // many connections whose head is still arriving (--max-slow-heads).
  int head_timeout_ms = 30000;
  int max_slow_heads = 256;
  std::string tls_cert_file;  // both set: HTTPS
  std::string tls_key_file;
  // The admin guard (admin_guard.h, docs/security.md): --admin-open answers
  // /__admin from any address with any Host; --admin-allow-host NAME (each)
  // answers requests that name NAME in their Host, from any address.
  bool admin_open = false;
  std::vector<std::string> admin_allow_hosts;
  LogLevel log_level = LogLevel::kInfo;
  std::string org_name = "default";  // the first org's name: also at /orgs/{org_name}
  // --provider-states FILE: what POST /__admin/provider-states applies, in every org.
  std::shared_ptr<const ProviderStates> provider_states;
};

// Validates every response `server` sends, except the admin API's, with
// `monitor` (`--check-contracts`; also what the OAuth tests' own server uses).
void install_contract_check(httplib::Server& server, std::shared_ptr<ContractMonitor> monitor);

class Server {
 public:
  // Responses are checked against the contracts when services.monitor is set.
  Server(OrgServices services, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and starts serving on a background thread. When it returns true the
  // port accepts connections. On failure `error` says why.
  bool start(std::string* error);
  void stop();
  int port() const { return port_; }
  bool tls() const { return tls_; }
  // "http://127.0.0.1:PORT" (https with TLS).
  std::string url() const;
  // The root org: a site built again (OrgSites::reopen) serves a new one.
  Org& org() {
    auto root = sites_.root();
    return root ? *root->services.org : *services_.org;
  }

  // Several orgs (org_sites.h): what POST /__admin/orgs calls; set before start().
  void set_org_directory(std::shared_ptr<OrgDirectory> directory) {
    directory_ = std::move(directory);
  }
  // The orgs served; the first (the root) is there once start() returned.
  OrgSites& sites() { return sites_; }
  // What a site of this server is built with (make_org_site).
  SiteOptions site_options() const {
    return SiteOptions{tls_, admin_policy_, directory_, options_.provider_states};
  }
  // The admin guard's policy, with the dashboard's token (new at every start).
  const AdminPolicy& admin_policy() const { return *admin_policy_; }

 private:
  void configure();
  OrgServices services_;
  ServerOptions options_;
  std::shared_ptr<OrgDirectory> directory_;
  std::shared_ptr<const AdminPolicy> admin_policy_;
  // Declared before server_, as sites_: requests pass it until server_ stops.
  std::unique_ptr<util::RequestGate> gate_;
  OrgSites sites_;  // declared before server_: requests read it until server_ stops
  std::unique_ptr<net::ConnectionServer> server_;
  std::thread thread_;
  int port_ = 0;
  bool tls_ = false;
};

}  // namespace fake_org::http
