#pragma once
// A tiny stand-in org for runner tests: just enough OAuth, API and admin
// surface to make each step kind pass and fail on purpose, independent of the
// real fake's behaviour. Plain HTTP, or HTTPS with a certificate the test makes.
//
// Locking: mutex_ guards tokens_, polls_ and psp_; counters are atomic.
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "net/listen_in_background.h"

namespace runner::testing {

class MiniOrg {
 public:
  // `server` is an httplib::Server or SSLServer, not yet listening.
  explicit MiniOrg(std::unique_ptr<httplib::Server> server = std::make_unique<httplib::Server>(),
                   std::string scheme = "http")
      : server_(std::move(server)), scheme_(std::move(scheme)) {
    routes();
    port_ = server_->bind_to_any_port("127.0.0.1");
    thread_ = listen_in_background(*server_);
  }
  ~MiniOrg() {
    server_->stop();
    thread_.join();
  }
  std::string url() const { return scheme_ + "://127.0.0.1:" + std::to_string(port_); }
  // Every issued token stops working: the runner must refresh.
  void revoke_all_tokens() {
    std::lock_guard<std::mutex> lock(mutex_);
    tokens_.clear();
  }
  int tokens_issued() const { return issued_; }
  int resets() const { return resets_; }

 private:
  inline static const std::string kApi = "/services/apexrest/cpm/v2";

  static void json(httplib::Response& res, int status, const nlohmann::json& body) {
    res.status = status;
    res.set_content(body.dump(), "application/json");
  }

  bool authorized(const httplib::Request& req, httplib::Response& res) {
    std::string h = req.get_header_value("Authorization");
    std::lock_guard<std::mutex> lock(mutex_);
    if (h.rfind("Bearer ", 0) == 0 && tokens_.count(h.substr(7))) return true;
    json(res, 401,
         nlohmann::json::array(
             {{{"errorCode", "INVALID_SESSION_ID"}, {"message", "Session expired or invalid"}}}));
    return false;
  }

  void routes() {
    token_route();
    echo_routes();
    payment_intent_routes();
    admin_routes();
  }

  void token_route() {
    server_->Post("/services/oauth2/token", [this](const httplib::Request& req,
                                                   httplib::Response& res) {
      const std::string grant = req.get_param_value("grant_type");
      bool ok = req.get_param_value("client_id") == "local-client" &&
                req.get_param_value("client_secret") == "local-secret" &&
                (grant == "client_credentials" ||
                 (grant == "refresh_token" && req.get_param_value("refresh_token") == "rt-1"));
      if (!ok) return json(res, 400, {{"error", "invalid_grant"}, {"error_description", "no"}});
      std::string token = "tok-" + std::to_string(++issued_);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        tokens_.insert(token);
      }
      json(res, 200, {{"access_token", token}, {"instance_url", url()}, {"token_type", "Bearer"}});
    });
  }

  void echo_routes() {
    server_->Get(kApi + "/Echo", [this](const httplib::Request& req, httplib::Response& res) {
      if (!authorized(req, res)) return;
      nlohmann::json q = nlohmann::json::object();
      for (const auto& [k, v] : req.params) q[k] = v;
      res.set_header("X-Request-Id", "req-42");
      json(res, 200, {{"query", q}, {"trace", req.get_header_value("X-Trace")}});
    });
    server_->Post(kApi + "/Echo", [this](const httplib::Request& req, httplib::Response& res) {
      if (!authorized(req, res)) return;
      json(res, 200,
           {{"body", nlohmann::json::parse(req.body, nullptr, false).is_discarded()
                         ? nlohmann::json(req.body)
                         : nlohmann::json::parse(req.body)},
            {"content_type", req.get_header_value("Content-Type")}});
    });
    server_->Get(kApi + "/Text", [](const httplib::Request&, httplib::Response& res) {
      res.set_content("plain words", "text/plain");
    });
  }

  static void send_created_webhook(const std::string& hook, const std::string& id) {
    auto slash = hook.find('/', hook.find("://") + 3);
    httplib::Client c(hook.substr(0, slash));
    c.Post(
        hook.substr(slash).c_str(),
        nlohmann::json{{"type", "paymentIntent.created"}, {"data", {{"Id", id}, {"Status", "New"}}}}
            .dump(),
        "application/json");
  }

  void payment_intent_routes() {
    // A payment intent that sends its webhook before answering, so awaiting it is deterministic.
    server_->Post(kApi + "/PaymentIntent",
                  [this](const httplib::Request& req, httplib::Response& res) {
                    if (!authorized(req, res)) return;
                    auto body = nlohmann::json::parse(req.body, nullptr, false);
                    std::string id = "pi_mini" + std::to_string(++intents_);
                    if (body.is_object() && body.contains("WebhookURL"))
                      send_created_webhook(body["WebhookURL"].get<std::string>(), id);
                    json(res, 200, {{"Id", id}, {"RedirectURL", url() + "/pay/sess-" + id}});
                  });
    // Processing on the first reads, then Matched (or Failed for pi_fail).
    server_->Get(kApi + R"(/PaymentIntent/([A-Za-z0-9_]+))", [this](const httplib::Request& req,
                                                                    httplib::Response& res) {
      if (!authorized(req, res)) return;
      std::string id = req.matches[1];
      if (id == "pi_bogus") return json(res, 200, {{"Id", "nope"}, {"Status", "Bogus"}});
      int n;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        n = ++polls_[id];
      }
      std::string status = n < 3 ? "Processing" : (id == "pi_fail" ? "Failed" : "Matched");
      json(res, 200, {{"Id", id}, {"Status", status}});
    });
  }

  void admin_routes() {
    server_->Get("/__admin/health", [](const httplib::Request&, httplib::Response& res) {
      json(res, 200, {{"status", "ok"}, {"fixture", "embedded:default.yaml"}});
    });
    server_->Post("/__admin/reset", [this](const httplib::Request&, httplib::Response& res) {
      ++resets_;
      json(res, 200, {{"status", "reset"}});
    });
    server_->Get("/__admin/clock", [](const httplib::Request&, httplib::Response& res) {
      json(res, 200, {{"now", "2027-01-31T09:00:00.000Z"}});
    });
    server_->Post("/__admin/clock", [](const httplib::Request& req, httplib::Response& res) {
      auto b = nlohmann::json::parse(req.body, nullptr, false);
      if (!b.is_object() || !b.contains("advance"))
        return json(res, 422,
                    {{"Errors", {{{"error_code", "010"}, {"error_message", "advance"}}}}});
      json(res, 200, {{"now", "2027-03-02T09:00:00.000Z"}});
    });
    server_->Post(R"(/__admin/psp/([^/]+)/complete)", [](const httplib::Request& req,
                                                         httplib::Response& res) {
      std::string s = req.matches[1];
      if (s.rfind("sess-", 0) != 0)
        return json(res, 404,
                    {{"Errors", {{{"error_code", "999"}, {"error_message", "no session"}}}}});
      json(res, 200, {{"session", s}, {"outcome", nlohmann::json::parse(req.body)["outcome"]}});
    });
  }

  std::unique_ptr<httplib::Server> server_;
  std::string scheme_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::set<std::string> tokens_;
  std::map<std::string, int> polls_;
  std::atomic<int> issued_{0};
  std::atomic<int> intents_{0};
  std::atomic<int> resets_{0};
};

}  // namespace runner::testing
