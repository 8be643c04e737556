#include "commands/record/record_command.h"

#include <pthread.h>
#include <signal.h>

#include <filesystem>

#include <CLI/CLI.hpp>

#include "commands/record/proxy.h"
#include "commands/record/write_scenario.h"
#include "targets/token_provider.h"

namespace runner::record {

CLI::App* add_record_command(CLI::App& app, RecordOptions& o) {
  CLI::App* sub = app.add_subcommand(
      "record", "Record traffic through a proxy to an org and write it as a scenario");
  sub->add_option("--upstream", o.upstream,
                  "The org's instance URL (a fake-org, or a real org with --upstream-config)");
  sub->add_option("--upstream-config", o.upstream_config,
                  "A sandbox .yaml: the proxy authenticates upstream with its OAuth grant")
      ->check(CLI::ExistingFile);
  sub->add_option("--listen", o.listen, "HOST:PORT the proxy listens on (port 0: any free)")
      ->capture_default_str();
  sub->add_option("--out,-o", o.out, "The scenario file to write")->required();
  sub->add_option("--max-requests", o.max_requests,
                  "Stop after N exchanges (default: on SIGINT only)");
  sub->add_flag("--strict", o.strict,
                "Keep every field (volatile ones as matchers) and expect objects exactly");
  sub->add_option("--card-numbers", o.cards,
                  "Card numbers in requests: env (${env:CARD_NUMBER}), mask or keep")
      ->check(CLI::IsMember({"env", "mask", "keep"}))
      ->capture_default_str();
  sub->add_option("--account-numbers", o.accounts,
                  "Bank account numbers (IBAN, AccountNumber): env, mask or keep")
      ->check(CLI::IsMember({"env", "mask", "keep"}))
      ->capture_default_str();
  sub->add_option("--name", o.name, "The scenario's name (default: from the file name)");
  sub->add_option("--fixture", o.fixture,
                  "The fixture the scenario names, for replays against the embedded fake");
  sub->add_option("--ca-file", o.ca_file, "Trust this CA (PEM) for an HTTPS upstream")
      ->check(CLI::ExistingFile);
  return sub;
}

int record_command(const RecordOptions& o, std::ostream& out, std::ostream& err) {
  if (o.upstream.empty() && o.upstream_config.empty()) {
    err << "record: give --upstream URL (a fake-org) or --upstream-config sandbox.yaml\n";
    return 2;
  }
  ProxyOptions po;
  po.upstream = o.upstream;
  po.upstream_config = o.upstream_config;
  po.ca_file = o.ca_file;
  po.max_requests = o.max_requests;
  po.on_upstream_failure = [&err](const std::string& what) {
    err << "warning: not recorded, the upstream did not answer: " << what << std::endl;
  };
  const size_t colon = o.listen.rfind(':');
  try {
    if (colon == std::string::npos) throw std::invalid_argument("no port");
    po.listen_host = o.listen.substr(0, colon);
    po.listen_port = std::stoi(o.listen.substr(colon + 1));
  } catch (const std::exception&) {
    err << "--listen takes HOST:PORT, e.g. 127.0.0.1:8088; got '" << o.listen << "'\n";
    return 2;
  }
  // SIGINT and SIGTERM are taken by one thread with sigwait, not a handler:
  // stopping the proxy is not async-signal-safe. Threads started from here on
  // (the server's) inherit the blocked mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  std::unique_ptr<RecordingProxy> proxy;
  int port = 0;
  try {
    proxy = std::make_unique<RecordingProxy>(po);
    port = proxy->start();
  } catch (const std::exception& e) {
    err << e.what() << "\n";
    return 2;
  }
  RecordingProxy* p = proxy.get();
  std::thread([signals, p] {
    int sig = 0;
    sigwait(&signals, &sig);
    p->request_stop();
  }).detach();  // blocked in sigwait until the process ends when --max-requests stops it
  out << "listening on http://" << po.listen_host << ":" << port << " (recording "
      << proxy->upstream() << "; Ctrl-C writes " << o.out << ")" << std::endl;
  proxy->wait();
  proxy->stop();

  GeneraliseOptions go;
  go.name = o.name.empty() ? "recorded from " + proxy->upstream() : o.name;
  go.description = "Recorded by scenario-runner record from " + proxy->upstream() + ".";
  go.fixture = o.fixture;
  go.api_path = proxy->api_path();
  go.strict = o.strict;
  go.cards = secret_mode_from_string(o.cards);
  go.accounts = secret_mode_from_string(o.accounts);
  auto exchanges = proxy->exchanges();
  out << exchanges.size() << " exchange(s) recorded";
  if (const size_t failed = proxy->failures().size(); failed > 0)
    out << "; " << failed
        << " request(s) the upstream did not answer are not in the scenario (warnings above)";
  out << "\n";
  // A scenario without steps does not load, and a file there may hold an
  // earlier recording: write nothing (exit 2, as import-har without requests).
  if (exchanges.empty()) {
    std::error_code ec;
    err << "recorded no exchange; " << o.out
        << (std::filesystem::exists(o.out, ec) ? " left as it was" : " not written") << "\n";
    return 2;
  }
  return write_scenario(generalise(exchanges, go), o.out, out, err);
}

}  // namespace runner::record
