#pragma once
// An embedded org on an ephemeral loopback port and a client with a bearer
// token: what the HTTP tests talk to. Also the org clock, the records behind
// the API, and the Errors body of a refused request.
#include <httplib.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/embedded.h"
#include "domain/data/catalogue_check.h"
#include "domain/store/record_store.h"
#include "events/contract_monitor.h"
#include "testing/fixtures.h"

namespace fake_org::testing {

struct Response {
  int status = 0;
  nlohmann::json json;  // null when the body is empty or not JSON
  std::string body;
  httplib::Headers headers;
};

// The n-th entry of a refused request's Errors body (spec: error_code and
// error_message); a body without it fails the assertion that asks.
inline std::string code_of(const Response& r, size_t n = 0) {
  return r.json.at("Errors").at(n).at("error_code").get<std::string>();
}
inline std::string message_of(const Response& r, size_t n = 0) {
  return r.json.at("Errors").at(n).at("error_message").get<std::string>();
}

// The data API (the platform's REST API) under the version the tests use,
// and the errorCode of its n-th error.
inline const std::string kDataApi = "/services/data/v59.0";
inline std::string data_error_code(const Response& r, size_t n = 0) {
  return r.json.at(n).at("errorCode").get<std::string>();
}

// What a successful POST /PaymentIntent created, read back with
// GET /PaymentIntent/{Id}.
struct CreatedIntent {
  std::string id;           // pi_...
  std::string redirect;     // the RedirectURL; empty for an inline method
  std::string session;      // the PSP session the RedirectURL opens
  std::string installment;  // OneTime.Id
};

// A running org plus a client that knows its base path and token.
class TestOrg {
 public:
  explicit TestOrg(const OrgConfig& config, EmbeddedOptions options = {})
      : org_(EmbeddedOrg::start(config, std::move(options))),
        client_("127.0.0.1", org_->port()),
        base_(org_->org().config().base_path()) {
    client_.set_tcp_nodelay(true);
    // A failure detector, not a timing check: a loaded sanitizer build can
    // take past httplib's 5 s on a large answer.
    client_.set_read_timeout(60, 0);
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

  // A client of its own that does not follow redirects, as a browser on the
  // PSP's pages sees them.
  httplib::Client page_client() {
    httplib::Client c("127.0.0.1", org_->port());
    c.set_follow_location(false);
    return c;
  }

  // The payer submits the PSP's hosted page of a session.
  httplib::Result submit_checkout(const std::string& session, const httplib::Params& form) {
    return page_client().Post(("/psp/checkout/" + session).c_str(), form);
  }

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

  // Paths under /__admin and /services/ as given, others under the API base.
  Response get(const std::string& path, bool auth = true) { return send("GET", path, "", auth); }
  Response post(const std::string& path, const nlohmann::json& body, bool auth = true) {
    return send("POST", path, body.dump(), auth);
  }
  Response post_raw(const std::string& path, const std::string& body, bool auth = true) {
    return send("POST", path, body, auth);
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

  // POST /PaymentIntent, which must succeed, and what it created.
  CreatedIntent create_intent(const nlohmann::json& body) {
    auto created = post("/PaymentIntent", body);
    INFO(created.body);
    REQUIRE(created.status == 200);
    CreatedIntent c;
    c.id = created.json.at("Id").get<std::string>();
    c.redirect = created.json.value("RedirectURL", "");
    if (!c.redirect.empty()) c.session = c.redirect.substr(c.redirect.rfind('/') + 1);
    auto read = get("/PaymentIntent/" + c.id);
    INFO(read.body);
    REQUIRE(read.status == 200);
    if (read.json.contains("OneTime")) c.installment = read.json["OneTime"].value("Id", "");
    // A body that asks for a payment gets an installment.
    if (body.contains("OneTime")) REQUIRE_FALSE(c.installment.empty());
    return c;
  }
  // The series of a successful POST /PaymentIntent.
  std::string recurring_id(const Response& created) {
    INFO(created.body);
    REQUIRE(created.status == 200);
    auto pi = get("/PaymentIntent/" + created.json.at("Id").get<std::string>());
    INFO(pi.body);
    REQUIRE(pi.status == 200);
    return pi.json.at("Recurring").at("Id").get<std::string>();
  }

  // The headless PSP driver: the payer's outcome on a hosted session.
  Response complete_session(const std::string& session,
                            const nlohmann::json& payer = {{"outcome", "success"}}) {
    return post("/__admin/psp/" + session + "/complete", payer, false);
  }

  // The org clock, through the admin API (its tokens age with it).
  void set_clock(const std::string& iso8601) { move_clock({{"set", iso8601}}); }
  void advance_clock(const std::string& duration) { move_clock({{"advance", duration}}); }

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
  // How many records of an object the org holds.
  size_t count(const std::string& object) {
    auto r = get("/__admin/records/" + object, false);
    INFO(r.body);
    REQUIRE(r.status == 200);
    return r.json.at("totalSize").get<size_t>();
  }
  // The stored records themselves, from the store.
  Record record(const std::string& id) {
    auto r = org().records().read([&](const RecordStore& s) { return s.get(id); });
    INFO(id);
    REQUIRE(r);
    return *r;
  }
  std::vector<Record> records_of(const std::string& object) {
    return org().records().read([&](const RecordStore& s) {
      std::vector<Record> out;
      for (const auto& id : s.ids_of(object)) out.push_back(*s.get(id));
      return out;
    });
  }

 private:
  void move_clock(const nlohmann::json& body) {
    auto r = post("/__admin/clock", body, false);
    INFO(body.dump() << " -> " << r.body);
    REQUIRE(r.status == 200);
  }

  std::unique_ptr<EmbeddedOrg> org_;
  httplib::Client client_;
  std::string base_;
  std::string token_;
};

}  // namespace fake_org::testing
