#pragma once
// Shared by the HTTP tests: an embedded org on an ephemeral port, a client
// with a bearer token, and fixtures loaded by name or from text.
#include <httplib.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "app/embedded.h"
#include "domain/catalogue_check.h"
#include "events/contract_monitor.h"
#include "fixture/fixture_loader.h"

namespace fake_org::testing {

inline OrgConfig fixture(const std::string& embedded_name) {
  auto load = load_embedded_fixture(embedded_name);
  if (!load.ok()) FAIL("fixture " << embedded_name << " does not load:\n" << load.error_text());
  return *load.config;
}

inline OrgConfig fixture_text(const std::string& yaml) {
  auto load = load_fixture_text(yaml, "test.yaml");
  if (!load.ok()) FAIL("test fixture does not load:\n" << load.error_text());
  return *load.config;
}

// A new one-time card payment (a hosted page) for Ada Lovelace; the FailureURL
// has a query of its own, so tests see the payment intent id appended to it.
inline nlohmann::json hosted_card_intent(const std::string& webhook = "") {
  nlohmann::json b = {
      {"SuccessURL", "https://shop.example/thanks"},
      {"FailureURL", "https://shop.example/sorry?step=2"},
      {"Payer",
       {{"Contact",
         {{"CrmFields",
           {{"FirstName", "Ada"}, {"LastName", "Lovelace"}, {"Email", "ada@example.org"}}}}}}},
      {"OneTime", {{"Amount", 25}}},
      {"PaymentMethod", {{"Name", "CreditCard"}}}};
  if (!webhook.empty()) b["WebhookURL"] = webhook;
  return b;
}

struct Response {
  int status = 0;
  nlohmann::json json;
  std::string body;
  httplib::Headers headers;
};

// A running org plus a client that knows its base path and token.
class TestOrg {
 public:
  explicit TestOrg(const OrgConfig& config, EmbeddedOptions options = {})
      : org_(EmbeddedOrg::start(config, std::move(options))),
        client_("127.0.0.1", org_->port()),
        base_(org_->org().config().base_path()) {
    client_.set_tcp_nodelay(true);
  }

  // Every test runs with the fake checking its own output against the
  // contracts, and ends with every record fitting the org's catalogue.
  ~TestOrg() {
    if (auto* m = org_->contract_monitor()) {
      INFO("contract violations:\n" << m->recent().dump(2));
      CHECK(m->violations() == 0);
    }
    const std::vector<std::string> bad = catalogue_violations(org());
    std::string text;
    for (const auto& b : bad) text += b + "\n";
    INFO("records that do not fit the catalogue:\n" << text);
    CHECK(bad.empty());
  }

  Org& org() { return org_->org(); }
  EmbeddedOrg& embedded() { return *org_; }
  httplib::Client& client() { return client_; }

  // client_credentials with the fixture's first connected app.
  std::string token() {
    if (!token_.empty()) return token_;
    const auto& app = org().config().auth.connected_apps.at(0);
    auto r = client_.Post("/services/oauth2/token",
                          httplib::Params{{"grant_type", "client_credentials"},
                                          {"client_id", app.client_id},
                                          {"client_secret", app.client_secret}});
    REQUIRE(r);
    REQUIRE(r->status == 200);
    token_ = nlohmann::json::parse(r->body).at("access_token").get<std::string>();
    return token_;
  }

  Response get(const std::string& path, bool auth = true) { return send("GET", path, "", auth); }
  Response post(const std::string& path, const nlohmann::json& body, bool auth = true) {
    return send("POST", path, body.dump(), auth);
  }
  Response post_raw(const std::string& path, const std::string& body, bool auth = true) {
    return send("POST", path, body, auth);
  }
  // One record, or every record of an object, as the admin API shows them.
  nlohmann::json admin_record(const std::string& object, const std::string& id) {
    auto r = get("/__admin/records/" + object + "/" + id, false);
    INFO(r.body);
    REQUIRE(r.status == 200);
    return r.json;
  }
  nlohmann::json admin_records(const std::string& object) {
    auto r = get("/__admin/records/" + object, false);
    INFO(r.body);
    REQUIRE(r.status == 200);
    return r.json["records"];
  }
  Response send(const std::string& method, const std::string& path, const std::string& body,
                bool auth = true) {
    httplib::Headers headers;
    if (auth) headers.emplace("Authorization", "Bearer " + token());
    std::string full =
        path.rfind("/__admin", 0) == 0 || path.rfind("/services/", 0) == 0 ? path : base_ + path;
    httplib::Result r =
        method == "GET"      ? client_.Get(full.c_str(), headers)
        : method == "POST"   ? client_.Post(full.c_str(), headers, body, "application/json")
        : method == "PUT"    ? client_.Put(full.c_str(), headers, body, "application/json")
        : method == "DELETE" ? client_.Delete(full.c_str(), headers)
                             : client_.Patch(full.c_str(), headers, body, "application/json");
    REQUIRE(r);
    Response out;
    out.status = r->status;
    out.body = r->body;
    out.headers = r->headers;
    if (!r->body.empty()) out.json = nlohmann::json::parse(r->body, nullptr, false);
    return out;
  }

 private:
  std::unique_ptr<EmbeddedOrg> org_;
  httplib::Client client_;
  std::string base_;
  std::string token_;
};

}  // namespace fake_org::testing
