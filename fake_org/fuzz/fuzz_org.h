#pragma once
// The default org served without a socket, for the fuzz targets: the same
// router, guards and handlers as fake-org, called with a request built in
// memory, so libFuzzer runs thousands of requests a second through the real
// request path. Webhooks go to a sender that never reaches the network.
//
// Every answer must hold to what the fake promises for any input: no status
// from 500 up, a body that is valid UTF-8 (and JSON when it says so), and a
// refused request changes no record. A broken promise aborts, which
// libFuzzer reports as a crash with the input that caused it.
#include <httplib.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/org_factory.h"
#include "checker/route_table.h"
#include "domain/store/record_store.h"
#include "fixture/fixture_loader.h"
#include "http/dispatch.h"
#include "http/fault_injector.h"
#include "http/request_journal.h"
#include "http/request_log.h"
#include "http/routes.h"
#include "net/content_encoding.h"
#include "yaml/yaml_input.h"

namespace fake_org::fuzz {

class OfflineSender final : public WebhookSender {
 public:
  HttpAttemptResult post(const std::string&, const std::string&, const HeaderList&,
                         Millis) override {
    return {0, "fuzzing: no network"};
  }
};

[[noreturn]] inline void broken_promise(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "broken promise: %s\n%s\n", what.c_str(), detail.substr(0, 2000).c_str());
  std::abort();
}

class FuzzOrg {
 public:
  FuzzOrg() {
    FixtureLoad load = load_embedded_fixture("default.yaml");
    if (!load.ok()) broken_promise("the default fixture loads", load.error_text());
    app::OrgWiring wiring;
    wiring.webhook_sender = [] { return std::make_unique<OfflineSender>(); };
    wiring.notice = [](const std::string&) {};
    auto built = app::build_org(*load.config, wiring);
    if (!built.ok()) broken_promise("the default org builds", "");
    services_ = *built;
    journal_ = std::make_unique<http::RequestJournal>(services_.org->config().base_path());
    auto site_router = std::make_shared<http::SiteRouter>();
    router_ = std::make_unique<http::Router>(
        contracts::route_table(),
        http::all_handlers(services_, *journal_, faults_, false, nullptr, site_router),
        http::MountOptions{services_.org->config().base_path(), {}});
    site_router->router = router_.get();
    guards_ =
        http::Guards{services_.tokens,
                     std::shared_ptr<http::FaultInjector>(&faults_, [](http::FaultInjector*) {}),
                     nullptr, services_.org->config().org.max_body_bytes};
  }

  Org& org() { return *services_.org; }
  std::string base() const { return services_.org->config().base_path(); }

  // One request as httplib would hand it over after reading it.
  httplib::Response serve(httplib::Request req) {
    req.remote_addr = "127.0.0.1";
    if (req.target.empty()) req.target = req.path;
    auto& ctx = http::request_log_context();
    ctx.payment_intent_id.clear();
    ctx.injected_fault = false;
    ctx.routed = true;
    ctx.content_encoding = net::take_content_encoding(req);
    httplib::Response res;
    http::dispatch(*router_, guards_, req, res);
    if (res.status == -1) res.status = 200;
    if (std::getenv("FUZZ_TRACE"))  // to see what an input does: FUZZ_TRACE=1 fuzz_x file
      std::fprintf(stderr, "%s %s -> %d %s\n", req.method.c_str(), req.path.c_str(), res.status,
                   res.body.substr(0, 300).c_str());
    check_answer(req, res);
    return res;
  }

  std::string token() {
    if (!token_.empty()) return token_;
    httplib::Request req;
    req.method = "POST";
    req.path = "/services/oauth2/token";
    req.set_header("Content-Type", "application/x-www-form-urlencoded");
    req.body = "grant_type=client_credentials&client_id=local-client&client_secret=local-secret";
    auto res = serve(req);
    token_ = nlohmann::json::parse(res.body, nullptr, false).value("access_token", "");
    if (token_.empty()) broken_promise("a client_credentials token is issued", res.body);
    return token_;
  }

  // The org back to its fixture, so records do not pile up over a long run.
  void reset_every(size_t n) {
    if (++runs_ % n == 0) services_.org->reset();
  }

 private:
  static void check_answer(const httplib::Request& req, const httplib::Response& res) {
    const std::string what = req.method + " " + req.path.substr(0, 200);
    if (res.status >= 500)
      broken_promise(what + " answered " + std::to_string(res.status), res.body);
    if (common::first_invalid_utf8(res.body) != std::string::npos)
      broken_promise(what + " answered bytes that are not UTF-8", res.body);
    const std::string type = res.get_header_value("Content-Type");
    if (type.find("json") != std::string::npos && !res.body.empty() &&
        nlohmann::json::parse(res.body, nullptr, false).is_discarded())
      broken_promise(what + " answered JSON that does not parse", res.body);
  }

  http::OrgServices services_;
  http::FaultInjector faults_;
  std::unique_ptr<http::RequestJournal> journal_;
  std::unique_ptr<http::Router> router_;
  http::Guards guards_;
  std::string token_;
  size_t runs_ = 0;
};

// How many records the org holds (a refused request must not change it).
inline size_t record_count(Org& org) {
  return org.records().read([](const RecordStore& store) { return store.size(); });
}

}  // namespace fake_org::fuzz
