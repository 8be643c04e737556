// fake-org: serves one in-memory org of the Payment Intent Service API v2.
#include <sys/resource.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include "app/main_malloc.h"
#include "app/org_factory.h"
#include "app/org_registry.h"
#include "cli/usage_error.h"
#include "domain/store/packed_text.h"
#include "durable/saved_orgs.h"
#include "events/contract_monitor.h"
#include "fixture/fixture_loader.h"
#include "fixture/provider_states.h"
#include "http/server.h"
#include "project_version.h"
#include "util/memory_cap.h"

namespace {

struct CommandLine {
  std::vector<std::string> fixtures;       // [NAME=]PATH each; the first also at the root
  std::vector<std::string> fixtures_dirs;  // --fixtures-dir: files POST /__admin/orgs may name
  size_t max_orgs = fake_org::app::OrgRegistry::kDefaultMaxOrgs;
  std::string log_level = "info";
  std::string capture_dir;
  bool check_contracts = false;
  std::string data_dir;
  std::string sync = "normal";
  bool reset_data = false;
  int head_timeout_seconds = 30;  // --head-timeout; ServerOptions holds milliseconds
  uint64_t max_memory = 0;        // --max-memory, bytes; 0: no cap
  std::string provider_states;    // --provider-states FILE
  fake_org::http::ServerOptions server;
};

void add_data_options(CLI::App& app, CommandLine& cl);
void add_guard_options(CLI::App& app, CommandLine& cl);

void add_options(CLI::App& app, CommandLine& cl) {
  app.set_version_flag(
      "--version",
      std::string("fake-org ") + FAKE_CRM_ORG_VERSION + " (git " + FAKE_CRM_ORG_GIT_COMMIT + ")",
      "Print the version (the project's, from CMake) and the git commit, and exit");
  app.add_option("--fixture", cl.fixtures,
                 "YAML fixture describing the org (default: the embedded fixtures/default.yaml; "
                 "'embedded:NAME.yaml' picks another embedded one). Repeat it to serve several "
                 "orgs, each at http://HOST:PORT/orgs/NAME (NAME=PATH names one; else the "
                 "file's stem); the first is also served at the root");
  app.add_option("--max-orgs", cl.max_orgs,
                 "Orgs served at most, the first included (POST /__admin/orgs creates more "
                 "until then)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app.add_option("--host", cl.server.host, "Address to listen on")->capture_default_str();
  app.add_option("--port", cl.server.port, "Port to listen on (0 to 65535); 0 picks a free port")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  // The simulated PSP's pages call this server back over HTTP (a real request)
  // from the worker serving the page, which waits for the answer: with
  // one worker the callback could never be served, so one is not enough.
  app.add_option("--threads", cl.server.threads,
                 "Pool worker threads kept ready (0: 8 per core, at least 32); more start "
                 "while every one is busy, up to --max-connections; at least 2, because a "
                 "PSP page's worker waits for the PSP's callback to this same server, which "
                 "another worker must answer")
      ->capture_default_str()
      ->check([](const std::string& v) -> std::string {
        int n = 0;
        try {
          n = std::stoi(v);
        } catch (...) {
          return "--threads must be a whole number";
        }
        if (n == 0 || n >= 2) return "";
        return "--threads " + v +
               " is too few: use 0 (sized for the machine) or at least 2; a PSP page's "
               "worker waits for the PSP's callback to this server, which needs another "
               "worker";
      });
  app.add_option("--max-connections", cl.server.max_connections,
                 "Connections served on threads of their own at once: over TLS every "
                 "connection; over plain HTTP a new connection's first request and one still "
                 "arriving (between requests a connection waits in the keep-alive watch, "
                 "closed after 5 s idle); more wait for a worker")
      ->capture_default_str()
      ->check(CLI::Range(2, 65536));
  app.add_option("--max-running-requests", cl.server.max_running_requests,
                 "Requests whose handlers run at once (0: 4 per core, at least 4); more wait "
                 "their turn in arrival order, which keeps latency even under many connections")
      ->capture_default_str()
      ->check(CLI::Range(0, 65536));
  app.add_option("--tls-cert", cl.server.tls_cert_file,
                 "PEM certificate: serve HTTPS instead of HTTP")
      ->check(CLI::ExistingFile);
  app.add_option("--tls-key", cl.server.tls_key_file, "PEM private key for --tls-cert")
      ->check(CLI::ExistingFile);
  app.add_option("--log-level", cl.log_level,
                 "quiet (nothing but errors such as contract violations), error (requests "
                 "answered 5xx), info (one line per request: method, path, status, ms, payment "
                 "intent id) or debug (info plus each request and response body, with tokens, "
                 "secrets, codes, signatures and card numbers redacted)")
      ->capture_default_str()
      ->check(CLI::IsMember({"quiet", "error", "info", "debug"}));
  app.add_flag(
      "--check-contracts", cl.check_contracts,
      "Validate every response and webhook against the strict contracts; log each mismatch loudly "
      "(at every --log-level; count in GET /__admin/health, details in GET /__admin/contracts) "
      "and exit with status 3 on SIGINT/SIGTERM if there was any");
  app.add_option(
      "--capture-dir", cl.capture_dir,
      "With --check-contracts (implied): also write every checked body, its route, "
      "schemas and verdicts to DIR as JSON, for contracts/tools/ajv_check.js --captured");
  add_data_options(app, cl);
  add_guard_options(app, cl);
}

// What the admin API and the transport take from outside (docs/security.md).
void add_guard_options(CLI::App& app, CommandLine& cl) {
  app.add_option("--fixtures-dir", cl.fixtures_dirs,
                 "A directory whose .yaml fixture files POST /__admin/orgs may name (by a path "
                 "relative to DIR or an absolute one inside it; repeatable). Without it a "
                 "request names only the shipped fixtures or sends one inline: no other file "
                 "of this machine is read (docs/security.md)")
      ->type_name("DIR")
      ->check(CLI::ExistingDirectory);
  app.add_option("--head-timeout", cl.head_timeout_seconds,
                 "Seconds a request's head (request line and headers) may take to arrive "
                 "from its first byte, however steadily it trickles; then the connection "
                 "ends. Over HTTPS the TLS handshake and the first head share one such time "
                 "from accept (docs/security.md)")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  app.add_option("--max-slow-heads", cl.server.max_slow_heads,
                 "Connections one peer address may hold a worker with while their request's "
                 "head (or TLS handshake) is still arriving; past it the next answers 503 at "
                 "once, or over HTTPS is closed (docs/security.md)")
      ->capture_default_str()
      ->check(CLI::Range(1, 65536));
  app.add_option("--max-memory", cl.max_memory,
                 "Resident memory the whole process may hold (every org together), as bytes or "
                 "with a unit: 512MiB, 2GiB (k, M and G count in 1024s). Past it a write that "
                 "adds records answers STORAGE_LIMIT_EXCEEDED and changes nothing, and POST "
                 "/__admin/orgs answers 507, until a reset or a deleted org gives memory back; "
                 "0, the default, is no cap (docs/security.md)")
      ->type_name("SIZE")
      ->transform(CLI::AsSizeValue(false));
  app.add_flag("--admin-open", cl.server.admin_open,
               "Answer /__admin (the admin API and the dashboard) from any address and to any "
               "Host name, not only loopback (a CI network; never on a shared network). "
               "Cross-site browser requests stay refused (docs/security.md)");
  app.add_option("--admin-allow-host", cl.server.admin_allow_hosts,
                 "Also answer /__admin requests whose Host is NAME, from any address: the "
                 "name other containers of a CI network reach this one by (repeatable; "
                 "docs/security.md)")
      ->type_name("NAME");
  app.add_option("--provider-states", cl.provider_states,
                 "A Pact provider-states file (YAML: state name -> fixture, clock, params, "
                 "records) that POST /__admin/provider-states applies for a Pact verifier "
                 "(docs/contract-testing.md)")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
}

// --provider-states: read once at start; a mistake in it stops the start.
bool load_provider_states(CommandLine& cl) {
  if (cl.provider_states.empty()) return true;
  auto load = fake_org::load_provider_states(cl.provider_states);
  for (const auto& e : load.errors) std::cerr << "fake-org: " << e.to_string() << "\n";
  if (!load.states) return false;
  cl.server.provider_states =
      std::make_shared<const fake_org::ProviderStates>(std::move(*load.states));
  return true;
}

void add_data_options(CLI::App& app, CommandLine& cl) {
  app.add_option("--data-dir", cl.data_dir,
                 "Keep every org in a SQLite database under DIR (created if missing): records, "
                 "id sequences, the org clock, tokens, idempotency keys, PSP sessions, webhooks "
                 "and the orgs POST /__admin/orgs created survive a restart. Without it nothing "
                 "touches the disk");
  app.add_option("--sync", cl.sync,
                 "With --data-dir: full (fsync each commit: survives a power loss), normal "
                 "(survives a crash of fake-org; a power loss may lose the last changes) or off "
                 "(survives a crash of fake-org; a power loss may damage the files)")
      ->capture_default_str()
      ->check(CLI::IsMember({"full", "normal", "off"}));
  app.add_flag("--reset-data", cl.reset_data,
               "With --data-dir: delete the orgs kept there first and start from the fixtures");
}

// A file, `embedded:NAME`, or a shipped fixture's bare name ("package.yaml",
// as scenarios and POST /__admin/orgs name them) when no file has that name.
fake_org::FixtureLoad load_fixture(const std::string& path) {
  if (path.empty()) return fake_org::load_embedded_fixture("default.yaml");
  if (path.rfind("embedded:", 0) == 0) return fake_org::load_embedded_fixture(path.substr(9));
  std::error_code ec;
  const bool is_file = std::filesystem::is_regular_file(path, ec);
  const auto shipped = fake_org::embedded_fixture_names();
  if (!is_file && std::find(shipped.begin(), shipped.end(), path) != shipped.end())
    return fake_org::load_embedded_fixture(path);
  fake_org::FixtureLoad load = fake_org::load_fixture_file(path);
  if (!is_file && !load.errors.empty()) {
    std::string names;
    for (const auto& n : shipped) names += (names.empty() ? "" : ", ") + n;
    load.errors.front().message += " (no such file from " +
                                   std::filesystem::current_path(ec).string() +
                                   "; the shipped fixtures, by bare name: " + names + ")";
  }
  return load;
}

// "shop=fixtures/shop.yaml" -> {"shop", "fixtures/shop.yaml"}; else no name.
std::pair<std::string, std::string> split_org_spec(const std::string& spec) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || spec.find('/') < eq) return {"", spec};
  return {spec.substr(0, eq), spec.substr(eq + 1)};
}

// The first org's name: given, else the fixture's stem ("default" without one).
std::string root_org_name(const CommandLine& cl) {
  if (cl.fixtures.empty()) return "default";
  auto [name, path] = split_org_spec(cl.fixtures.front());
  if (!name.empty()) return name;
  std::string stem = std::filesystem::path(path.rfind("embedded:", 0) == 0 ? path.substr(9) : path)
                         .stem()
                         .string();
  return fake_org::app::OrgRegistry::valid_name(stem) ? stem : "default";
}

// Readies --data-dir (and empties it with --reset-data); false after saying why not.
bool prepare_data_dir(const CommandLine& cl) {
  if (cl.data_dir.empty()) {
    if (cl.reset_data) std::cerr << "fake-org: --reset-data needs --data-dir\n";
    return !cl.reset_data;
  }
  auto failed = cl.reset_data ? fake_org::durable::SavedOrgs::reset(cl.data_dir) : std::nullopt;
  if (!failed) failed = fake_org::durable::SavedOrgs::prepare(cl.data_dir);
  if (failed) std::cerr << "fake-org: " << *failed << "\n";
  return !failed;
}

// The first org the command line describes, or the exit status that says why not.
std::optional<fake_org::http::OrgServices> build(const CommandLine& cl, int& status) {
  const std::string path = cl.fixtures.empty() ? "" : split_org_spec(cl.fixtures.front()).second;
  fake_org::FixtureLoad load = load_fixture(path);
  if (!load.ok()) {
    std::cerr << "fake-org: the fixture is invalid:\n" << load.error_text() << "\n";
    status = 2;
    return std::nullopt;
  }
  for (const auto& w : load.warnings) std::cerr << "fake-org: warning: " << w.to_string() << "\n";
  fake_org::app::OrgWiring wiring;
  wiring.check_contracts = cl.check_contracts;
  if (!cl.data_dir.empty()) {
    wiring.data_file = fake_org::durable::SavedOrgs::org_file(cl.data_dir, cl.server.org_name);
    wiring.sync = *fake_org::durable::parse_sync(cl.sync);
  }
  auto org = fake_org::app::build_org(std::move(*load.config), std::move(wiring));
  if (!org.ok()) {
    for (const auto& e : org.errors()) std::cerr << "fake-org: " << e.message << "\n";
    status = 2;
    return std::nullopt;
  }
  return *org;
}

// The command line's orgs after the first; false (after saying why) when one
// cannot be served.
bool add_other_orgs(const CommandLine& cl, fake_org::app::OrgRegistry& registry) {
  for (size_t i = 1; i < cl.fixtures.size(); ++i) {
    std::string notice;
    if (auto error = registry.add_command_line_org(cl.fixtures[i], notice)) {
      std::cerr << "fake-org: " << *error << "\n";
      return false;
    }
    if (!notice.empty()) std::cerr << "fake-org: " << notice << "\n";
  }
  return true;
}

fake_org::app::RegistryOptions registry_options(const CommandLine& cl) {
  fake_org::app::RegistryOptions options;
  options.max_orgs = cl.max_orgs;
  options.check_contracts = cl.check_contracts;
  options.data_dir = cl.data_dir;
  options.fixtures_dirs = cl.fixtures_dirs;
  options.sync = *fake_org::durable::parse_sync(cl.sync);
  return options;
}

// Where the orgs are served: the URL on stdout (scripts read it), the rest on stderr.
void announce(fake_org::http::Server& server, const fake_org::http::OrgServices& root) {
  std::printf("listening on %s\n", server.url().c_str());
  std::fflush(stdout);
  for (const auto& site : server.sites().list())
    if (site != server.sites().root())
      std::fprintf(stderr, "fake-org: org '%s' from %s at %s%s\n", site->name.c_str(),
                   site->services.org->config().source_name.c_str(), server.url().c_str(),
                   site->prefix.c_str());
  std::fprintf(stderr, "fake-org: org '%s' from %s; token: POST %s/services/oauth2/token\n",
               root.org->config().org.name.c_str(), root.org->config().source_name.c_str(),
               server.url().c_str());
}

// A self-check that only logs is easy to miss in a script: the exit status
// says it too (README, "Contract self-check"). Every org still served counts.
int report_violations(fake_org::http::Server& server) {
  size_t violations = 0;
  for (const auto& site : server.sites().list())
    if (const auto* monitor = site->services.monitor.get()) violations += monitor->violations();
  if (violations == 0) return 0;
  std::fprintf(stderr,
               "fake-org: %zu contract violation(s) while running (each logged above as "
               "CONTRACT VIOLATION); exiting with status 3\n",
               violations);
  return 3;
}

}  // namespace

// Each connection is a descriptor: the soft limit (often 1024) would refuse
// connections long before --max-connections, so take the hard limit.
static void raise_open_file_limit() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur >= lim.rlim_max) return;
  lim.rlim_cur = lim.rlim_max;
  setrlimit(RLIMIT_NOFILE, &lim);
}

int main(int argc, char** argv) {
  // Block the stop signals before any thread starts (the org's webhook
  // workers start with it), so every thread inherits the mask and only the
  // sigwait below receives them; a worker that could take SIGTERM would let
  // its default action kill the process uncleanly.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  // A file-size limit (ulimit -f) then fails a write as a full disk does,
  // which the data directory answers, instead of killing the process.
  std::signal(SIGXFSZ, SIG_IGN);
  raise_open_file_limit();
  fake_org::app::set_up_malloc();

  CLI::App app{
      "fake-org: an offline CRM org serving the Payment Intent Service API v2 under\n"
      "/services/apexrest/cpm/v2, with OAuth 2.0 at /services/oauth2 and an admin API at "
      "/__admin."};
  CommandLine cl;
  add_options(app, cl);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return common_cli::usage_error(app, e, std::cout, std::cerr);
  }
  fake_org::http::parse_log_level(cl.log_level, cl.server.log_level);
  cl.server.head_timeout_ms = cl.head_timeout_seconds * 1000;
  fake_org::util::set_memory_cap(cl.max_memory);
  if (!cl.capture_dir.empty()) {
    // The ContractMonitor the app creates reads it (as for an embedded org).
    setenv(fake_org::ContractMonitor::kCaptureDirEnv, cl.capture_dir.c_str(), 1);
    cl.check_contracts = true;
  }
  cl.server.org_name = root_org_name(cl);
  if (!fake_org::app::OrgRegistry::valid_name(cl.server.org_name)) {
    std::cerr << "fake-org: the org name '" << cl.server.org_name
              << "' must be 1 to 63 letters, digits, '-' or '_'\n";
    return 2;
  }
  if (!prepare_data_dir(cl)) return 2;
  if (!load_provider_states(cl)) return 2;
  fake_org::packed_text::prepare();
  int status = 0;
  auto org = build(cl, status);
  if (!org) return status;

  fake_org::http::Server server(*org, cl.server);
  auto registry = std::make_shared<fake_org::app::OrgRegistry>(server, registry_options(cl));
  server.set_org_directory(registry);
  std::string error;
  if (!server.start(&error)) {
    std::cerr << "fake-org: " << error << "\n";
    return 1;
  }
  if (!add_other_orgs(cl, *registry)) return 2;
  if (auto failed = registry->restore_saved_orgs()) {
    std::cerr << "fake-org: " << *failed << "\n";
    return 2;
  }
  announce(server, *org);

  int sig = 0;
  sigwait(&stop_signals, &sig);
  std::fprintf(stderr, "fake-org: %s received, shutting down\n",
               sig == SIGINT ? "SIGINT" : "SIGTERM");
  server.stop();
  const int exit_status = report_violations(server);
  // Exit without freeing the orgs: with a million records that took 11-29 s
  // of SIGTERM (decisions 79). What must outlive the process is written
  // first: the data directory, then the console.
  if (auto failed = registry->close_for_exit())
    std::fprintf(stderr, "fake-org: at exit: %s\n", failed->c_str());
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(exit_status);
}
