#pragma once
// The recording proxy: an HTTP server that forwards every request to the
// upstream org, hands its answer back unchanged, and keeps each exchange for
// the generaliser. With a sandbox configuration the proxy authenticates
// upstream itself (the client may send any Authorization, or none).
//
// A request the upstream did not answer is not recorded (there is no answer
// to replay); it is reported instead, never dropped silently.
//
// Locking: mutex_ guards upstream_ (an HttpClient is not thread-safe), log_,
// failed_ and done_; it is held across the upstream call, so requests are
// forwarded one at a time and the log is in the order the upstream answered
// them; on_upstream_failure is called under it. done_cv_ signals done_ to wait().
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "commands/record/exchange.h"
#include "net/http_client.h"
#include "targets/token_provider.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace runner::record {

struct ProxyOptions {
  std::string upstream;         // scheme://host[:port] of the org's instance
  std::string upstream_config;  // a sandbox .yaml: its instance_url and OAuth grant
  std::string ca_file;          // trust this CA upstream
  std::string listen_host = "127.0.0.1";
  int listen_port = 0;      // 0: any free port
  size_t max_requests = 0;  // stop after this many exchanges; 0: only on request_stop()
  // Told "METHOD /path: why" for each request the upstream did not answer.
  std::function<void(const std::string&)> on_upstream_failure;
};

class RecordingProxy {
 public:
  // Throws TargetError for a bad upstream or configuration.
  explicit RecordingProxy(ProxyOptions options);
  ~RecordingProxy();
  RecordingProxy(const RecordingProxy&) = delete;
  RecordingProxy& operator=(const RecordingProxy&) = delete;

  // Binds and serves on a thread of its own; returns the port. Throws TargetError.
  int start();
  // Blocks until max_requests exchanges were recorded or request_stop() was called.
  void wait();
  void request_stop();  // any thread
  void stop();          // stops serving and joins; idempotent
  std::vector<RecordedExchange> exchanges() const;
  // "METHOD /path: why" for each request the upstream did not answer (not recorded).
  std::vector<std::string> failures() const;
  const std::string& upstream() const { return upstream_url_; }
  // The API path on the upstream (from the sandbox configuration, else the default).
  const std::string& api_path() const { return api_path_; }

 private:
  void handle(const httplib::Request& req, httplib::Response& res);

  ProxyOptions options_;
  std::string upstream_url_;
  std::string api_path_ = "/services/apexrest/cpm/v2";
  std::shared_ptr<TokenProvider> tokens_;  // set with --upstream-config
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;

  mutable std::mutex mutex_;
  std::condition_variable done_cv_;
  std::unique_ptr<HttpClient> upstream_;
  std::vector<RecordedExchange> log_;
  std::vector<std::string> failed_;
  bool done_ = false;
};

}  // namespace runner::record
