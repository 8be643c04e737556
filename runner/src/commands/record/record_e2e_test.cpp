// End to end: a fake-org over TLS as the upstream, a realistic flow through
// the recording proxy with a plain HTTP client, the scenario written, and
// replayed green against a fresh embedded fake with the same fixture and
// against the same upstream (reset by URL, and as a sandbox).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <httplib.h>

#include <catch2/catch.hpp>

#include "commands/record/generaliser.h"
#include "commands/record/proxy.h"
#include "commands/record/write_scenario.h"
#include "eval/interpolate.h"
#include "net/listen_in_background.h"
#include "testing/child_process.h"
#include "testing/free_port.h"
#include "testing/run_helpers.h"
#include "testing/temp_dir.h"
#include "testing/test_cert.h"

using common_testing::TestCert;
using namespace runner;
using namespace runner::record;
using namespace runner::testing;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kApiBase = "/services/apexrest/cpm/v2";

// A client of the API as an integration would write it: it takes a token,
// then uses the ids each answer gives it.
struct Client {
  httplib::Client http;
  std::string token;
  explicit Client(int port) : http("127.0.0.1", port) {}

  json call(const std::string& method, const std::string& path, const json& body = nullptr,
            int want = 200) {
    httplib::Headers h;
    if (!token.empty()) h.emplace("Authorization", "Bearer " + token);
    httplib::Result r =
        method == "GET" ? http.Get((kApiBase + path).c_str(), h)
                        : http.Post((kApiBase + path).c_str(), h, body.dump(), "application/json");
    REQUIRE(r);
    INFO(method << " " << path << " -> " << r->status << " " << r->body);
    REQUIRE(r->status == want);
    return json::parse(r->body);
  }
};

json intent(json extra) {
  json b = {{"SuccessURL", "https://shop.example/thanks"},
            {"FailureURL", "https://shop.example/sorry"},
            {"IdempotencyKey", make_uuid_v4()}};
  b.update(extra);
  return b;
}

const json kSepa = {
    {"Name", "SEPA Direct Debit"},
    {"Parameters", {{"IBAN", "DE89370400440532013000"}, {"AccountHolderName", "Ada Lovelace"}}}};
const json kAda = {
    {"Contact",
     {{"CrmFields",
       {{"FirstName", "Ada"}, {"LastName", "Lovelace"}, {"Email", "ada@example.org"}}}}}};

// Drives the flow; returns the access token the client was given.
std::string drive_flow(int proxy_port) {
  Client c(proxy_port);
  auto tok =
      c.http.Post("/services/oauth2/token",
                  "grant_type=client_credentials&client_id=local-client&client_secret=local-secret",
                  "application/x-www-form-urlencoded");
  REQUIRE(tok);
  REQUIRE(tok->status == 200);
  c.token = json::parse(tok->body)["access_token"];
  // A stale token first: the 401 must replay as a 401, not with the runner's token.
  auto stale = c.http.Get((kApiBase + "/PaymentMethods").c_str(),
                          httplib::Headers{{"Authorization", "Bearer stale-token-000000"}});
  REQUIRE(stale);
  REQUIRE(stale->status == 401);
  c.call("GET", "/PaymentMethods");
  json one =
      c.call("POST", "/PaymentIntent",
             intent({{"Payer", kAda}, {"OneTime", {{"Amount", 25}}}, {"PaymentMethod", kSepa}}));
  const std::string pi = one["Id"];
  json read = c.call("GET", "/PaymentIntent/" + pi);
  const std::string installment = read["OneTime"]["Id"];
  json inst = c.call("GET", "/Installment/" + installment);
  c.call("POST", "/PaymentIntent",
         intent({{"Payer", kAda},
                 {"Recurring",
                  {{"Amount", 10}, {"Frequency", "Monthly"}, {"StartDate", "2027-02-01"}}},
                 {"PaymentMethod", kSepa}}));
  json pay = c.call(
      "POST", "/PaymentIntent",
      intent({{"OneTime", {{"Id", inst["GUID"]}}}, {"PaymentMethod", {{"Name", "CreditCard"}}}}));
  c.call("GET", "/PaymentIntent/" + pay["Id"].get<std::string>());
  c.call("POST", "/PaymentIntent",
         intent({{"Payer", kAda}, {"OneTime", {{"Amount", 0}}}, {"PaymentMethod", kSepa}}), 422);
  return c.token;
}

}  // namespace

TEST_CASE("a flow recorded through the proxy from a TLS fake-org replays green on a fresh fake",
          "[record][process]") {
  const std::string bin = std::string(FAKE_ORG_BIN_DIR) + "/fake-org";
  if (!fs::exists(bin)) {
    WARN("fake-org is not built; build the fake-org target to run this test");
    return;
  }
  TempDir dir("runner_record");
  TestCert cert = TestCert::make();
  const std::string cert_file = (dir.path / "cert.pem").string();
  cert.write(cert_file, (dir.path / "key.pem").string());
  ChildProcess upstream({bin, "--port", "0", "--log-level", "quiet", "--tls-cert", cert_file,
                         "--tls-key", (dir.path / "key.pem").string()});
  const std::string line = upstream.read_line();
  REQUIRE(line.rfind("listening on https://", 0) == 0);

  ProxyOptions po;
  po.upstream = line.substr(std::string("listening on ").size());
  po.ca_file = cert_file;
  RecordingProxy proxy(po);
  const int port = proxy.start();
  const std::string token = drive_flow(port);
  proxy.stop();
  const auto exchanges = proxy.exchanges();
  REQUIRE(exchanges.size() == 10);

  GeneraliseOptions go;
  go.name = "recorded flow";
  go.fixture = "default.yaml";
  const fs::path out = dir.path / "recorded.yaml";
  std::ostringstream msg, err;
  Generalised g = generalise(exchanges, go);
  REQUIRE(write_scenario(g, out.string(), msg, err) == 0);
  const std::string text = read_file(out);
  INFO(text);
  CHECK(text.find(token) == std::string::npos);
  CHECK(text.find("local-secret") == std::string::npos);
  CHECK(text.find("stale-token-000000") == std::string::npos);
  CHECK(text.find("DE89370400440532013000") == std::string::npos);
  CHECK(text.find("GET /PaymentIntent/${pi}") != std::string::npos);
  CHECK(text.find("GET /Installment/${onetime_id}") != std::string::npos);
  CHECK(text.find("Id: ${installment_guid}") != std::string::npos);

  for (const auto& name : g.env) INFO("env " << name);
  REQUIRE(g.env == std::vector<std::string>{"ORG_CLIENT_SECRET", "IBAN"});
  setenv("ORG_CLIENT_SECRET", "local-secret", 1);
  setenv("IBAN", "DE89370400440532013000", 1);
  auto target = make_embedded_target();
  ScenarioResult r = run_text(*target, text);
  std::string failures;
  for (const auto& s : r.steps)
    for (const auto& f : s.failures) failures += s.name + ": " + f.kind + ": " + f.message + "\n";
  INFO(failures);
  CHECK(r.outcome == Outcome::kPassed);
  CHECK(r.steps.size() == 10);

  // And against the same upstream it was recorded from: by URL (the fake is
  // reset through its admin API first, as the url target does), then as a
  // sandbox over TLS (OAuth and API only, the org as the recording left it).
  auto same = make_target(po.upstream, TargetOptions{cert_file});
  ScenarioResult again = run_text(*same, text);
  failures.clear();
  for (const auto& s : again.steps)
    for (const auto& f : s.failures) failures += s.name + ": " + f.kind + ": " + f.message + "\n";
  INFO("same upstream by URL: " << again.error << failures);
  CHECK(again.outcome == Outcome::kPassed);
  CHECK(again.steps.size() == 10);

  setenv("RECORD_E2E_SECRET", "local-secret", 1);
  const fs::path sandbox = dir.path / "sandbox.yaml";
  std::ofstream(sandbox) << "instance_url: " << po.upstream
                         << "\noauth: {grant: client_credentials, client_id: local-client, "
                            "client_secret: \"${env:RECORD_E2E_SECRET}\"}\nca_file: cert.pem\n";
  auto as_sandbox = make_target(sandbox.string(), {});
  ScenarioResult third = run_text(*as_sandbox, text);
  failures.clear();
  for (const auto& s : third.steps)
    for (const auto& f : s.failures) failures += s.name + ": " + f.kind + ": " + f.message + "\n";
  INFO("same upstream as a sandbox: " << third.error << failures);
  CHECK(third.outcome == Outcome::kPassed);
}

TEST_CASE("with a sandbox configuration the proxy authenticates upstream itself",
          "[record][process]") {
  const std::string bin = std::string(FAKE_ORG_BIN_DIR) + "/fake-org";
  if (!fs::exists(bin)) {
    WARN("fake-org is not built; build the fake-org target to run this test");
    return;
  }
  TempDir dir("runner_record");
  ChildProcess upstream({bin, "--port", "0", "--log-level", "quiet"});
  const std::string line = upstream.read_line();
  REQUIRE(line.rfind("listening on http://", 0) == 0);
  setenv("RECORD_TEST_SECRET", "local-secret", 1);
  const fs::path config = dir.path / "sandbox.yaml";
  std::ofstream(config) << "instance_url: " << line.substr(std::string("listening on ").size())
                        << "\noauth: {grant: client_credentials, client_id: local-client, "
                           "client_secret: \"${env:RECORD_TEST_SECRET}\"}\n";
  ProxyOptions po;
  po.upstream_config = config.string();
  po.max_requests = 1;
  RecordingProxy proxy(po);
  httplib::Client c("127.0.0.1", proxy.start());
  auto r = c.Get((kApiBase + "/PaymentMethods").c_str(), {{"Authorization", "Bearer anything"}});
  REQUIRE(r);
  CHECK(r->status == 200);
  proxy.wait();  // --max-requests 1 reached
  proxy.stop();
  REQUIRE(proxy.exchanges().size() == 1);
  CHECK(proxy.exchanges()[0].authenticated);
}

TEST_CASE("a request the upstream did not answer is reported, not dropped silently", "[record]") {
  const int dead_port = testing::free_port();
  std::vector<std::string> told;
  ProxyOptions po;
  po.upstream = "http://127.0.0.1:" + std::to_string(dead_port);
  po.on_upstream_failure = [&told](const std::string& what) { told.push_back(what); };
  RecordingProxy proxy(po);
  httplib::Client c("127.0.0.1", proxy.start());
  auto r = c.Get((kApiBase + "/PaymentMethods").c_str(), {{"Authorization", "Bearer anything"}});
  REQUIRE(r);
  CHECK(r->status == 502);
  proxy.stop();
  CHECK(proxy.exchanges().empty());
  REQUIRE(proxy.failures().size() == 1);
  CHECK(proxy.failures()[0].rfind("GET " + kApiBase + "/PaymentMethods: ", 0) == 0);
  CHECK(told == proxy.failures());
}

TEST_CASE("the proxy forwards the request target byte for byte", "[record]") {
  // curl, Python requests and Java's URLEncoder send a space in a query as
  // `+`; re-encoded as %2B it would be another query (a literal plus).
  httplib::Server upstream;
  std::string seen;
  upstream.Get(".*", [&seen](const httplib::Request& req, httplib::Response& res) {
    seen = req.target;
    res.set_content("{}", "application/json");
  });
  const int port = upstream.bind_to_any_port("127.0.0.1");
  std::thread loop = listen_in_background(upstream);
  ProxyOptions po;
  po.upstream = "http://127.0.0.1:" + std::to_string(port);
  RecordingProxy proxy(po);
  httplib::Client c("127.0.0.1", proxy.start());
  c.set_url_encode(false);  // the client's own bytes, as curl sends them
  const std::string target =
      "/services/data/v59.0/query?q=SELECT+Id,+Name+FROM+Account+WHERE+Name+=+'a%2Bb'";
  auto r = c.Get(target.c_str(), {{"Authorization", "Bearer anything"}});
  REQUIRE(r);
  CHECK(r->status == 200);
  proxy.stop();
  upstream.stop();
  loop.join();
  CHECK(seen == target);
  REQUIRE(proxy.exchanges().size() == 1);
  CHECK(proxy.exchanges()[0].target == target);
}
