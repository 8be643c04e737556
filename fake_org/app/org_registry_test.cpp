// Several orgs on one server (README "Several orgs"): the admin API that
// creates, lists and deletes them, their instance URLs, the root login paths,
// and every isolation rule, over real HTTP.
#include <catch2/catch.hpp>

#include <atomic>
#include <set>
#include <thread>

#include "app/embedded.h"
#include "testing/fixtures.h"
#include "testing/intent_body.h"
#include "util/crypto.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

struct OrgsAnswer {
  int status = 0;
  json body;
  std::string text;
  std::string location;
};

OrgsAnswer to_orgs_answer(const httplib::Result& r) {
  REQUIRE(r);
  OrgsAnswer a{r->status, json::parse(r->body, nullptr, false), r->body,
               r->get_header_value("Location")};
  return a;
}

// A fake-org of several orgs, and a client for it.
class SeveralOrgs {
 public:
  explicit SeveralOrgs(size_t max_orgs = 20, const std::string& root_fixture = "default.yaml") {
    EmbeddedOptions options;
    options.max_orgs = max_orgs;
    org_ = EmbeddedOrg::start(fixture(root_fixture), options);
    client_ = std::make_unique<httplib::Client>("127.0.0.1", org_->port());
  }
  // Every org still served kept its contracts.
  ~SeveralOrgs() {
    for (const auto& site : org_->sites().list())
      if (const auto* m = site->services.monitor.get()) {
        INFO(site->name << ": " << m->recent().dump(2));
        CHECK(m->violations() == 0);
      }
  }
  EmbeddedOrg& embedded() { return *org_; }
  std::string base() const { return org_->base_url(); }

  OrgsAnswer post(const std::string& path, const json& body) {
    return to_orgs_answer(client_->Post(path, body.dump(), "application/json"));
  }
  OrgsAnswer get(const std::string& path, const std::string& token = "") {
    httplib::Headers h;
    if (!token.empty()) h.emplace("Authorization", "Bearer " + token);
    return to_orgs_answer(client_->Get(path, h));
  }
  OrgsAnswer del(const std::string& path) { return to_orgs_answer(client_->Delete(path)); }
  OrgsAnswer api_post(const std::string& path, const json& body, const std::string& token) {
    httplib::Headers h{{"Authorization", "Bearer " + token}};
    return to_orgs_answer(client_->Post(path, h, body.dump(), "application/json"));
  }
  OrgsAnswer form(const std::string& path, const httplib::Params& params) {
    return to_orgs_answer(client_->Post(path, params));
  }

  // An org from `fixture`, answered 201; its name.
  std::string create(const json& request) {
    auto a = post("/__admin/orgs", request);
    INFO(a.text);
    REQUIRE(a.status == 201);
    return a.body.at("name").get<std::string>();
  }
  // client_credentials at `prefix` ("" for the root org).
  std::string token(const std::string& prefix, const std::string& client = "local-client",
                    const std::string& secret = "local-secret") {
    auto a = form(
        prefix + "/services/oauth2/token",
        {{"grant_type", "client_credentials"}, {"client_id", client}, {"client_secret", secret}});
    INFO(a.text);
    REQUIRE(a.status == 200);
    return a.body.at("access_token").get<std::string>();
  }
  size_t contacts(const std::string& prefix) {
    auto a = get(prefix + "/__admin/records");
    REQUIRE(a.status == 200);
    return a.body.at("objects").value("Contact", size_t{0});
  }

 private:
  std::unique_ptr<EmbeddedOrg> org_;
  std::unique_ptr<httplib::Client> client_;
};

const std::string kOrgsApi = "/services/apexrest/cpm/v2";

// A fixture of the default org with its own connected app and users (the
// login paths need both unique), as an inline object: users
// integration@{client_id}.example and buyer@{client_id}.example, whose
// password grant takes "buyer-password" + "BUYERTOKEN".
json own_app_fixture(const std::string& client_id, const std::string& users_of = std::string()) {
  const std::string domain = (users_of.empty() ? client_id : users_of) + ".example";
  return {{"extends", "default.yaml"},
          {"auth",
           {{"password_flow", true},
            {"connected_apps",
             json::array({{{"name", "Shop"},
                           {"client_id", client_id},
                           {"client_secret", client_id + "-secret"},
                           {"redirect_uris", json::array({"http://localhost:8080/callback"})},
                           {"client_credentials", true}}})},
            {"users", json::array({{{"username", "integration@" + domain}},
                                   {{"username", "buyer@" + domain},
                                    {"password", "buyer-password"},
                                    {"security_token", "BUYERTOKEN"}}})}}}};
}

}  // namespace

TEST_CASE("POST /__admin/orgs creates an org served under /orgs/{name}", "[orgs]") {
  SeveralOrgs s;
  // Its client id is the root org's too: served under its prefix only.
  auto created = s.post("/__admin/orgs",
                        {{"fixture", "nonprofit.yaml"}, {"name", "np"}, {"login_paths", false}});
  INFO(created.text);
  REQUIRE(created.status == 201);
  CHECK(created.body["name"] == "np");
  CHECK(created.body["instance_url"] == s.base() + "/orgs/np");
  CHECK(created.body["connected_apps"][0]["client_id"] == "local-client");
  CHECK(created.body["connected_apps"][0]["client_secret"] == "local-secret");

  // Its token response names its instance URL; the API answers there.
  auto token = s.form("/orgs/np/services/oauth2/token", {{"grant_type", "client_credentials"},
                                                         {"client_id", "local-client"},
                                                         {"client_secret", "local-secret"}});
  REQUIRE(token.status == 200);
  CHECK(token.body["instance_url"] == s.base() + "/orgs/np");
  const std::string t = token.body["access_token"];
  auto methods = s.get("/orgs/np" + kOrgsApi + "/PaymentMethods", t);
  REQUIRE(methods.status == 200);
  CHECK(methods.body["PaymentMethods"][0]["Processors"][0]["Name"] == "Authorize.Net");
  // The identity URL is under the prefix too, and answers.
  const std::string id_url = token.body["id"];
  CHECK(id_url.rfind(s.base() + "/orgs/np/test/id/", 0) == 0);
  CHECK(s.get(id_url.substr(s.base().size()), t).status == 200);
  // The root org is unchanged, and answers at /orgs/default as well.
  CHECK(s.get(kOrgsApi + "/PaymentMethods", s.token(""))
            .body["PaymentMethods"][0]["Processors"][0]["Name"] == "Stripe");
  CHECK(s.get("/orgs/default/__admin/health").body["org"] == "Local Fake Org");

  auto list = s.get("/__admin/orgs");
  REQUIRE(list.status == 200);
  REQUIRE(list.body["orgs"].size() == 2);
  CHECK(list.body["orgs"][0]["name"] == "default");
  CHECK(list.body["orgs"][0]["root"] == true);
  CHECK(list.body["orgs"][1]["name"] == "np");
  CHECK(list.body["orgs"][1]["fixture"] == "embedded:nonprofit.yaml");

  auto deleted = s.del("/__admin/orgs/np");
  CHECK(deleted.status == 200);
  auto gone = s.get("/orgs/np" + kOrgsApi + "/PaymentMethods", t);
  CHECK(gone.status == 404);
  CHECK(gone.text.find("No org named 'np'") != std::string::npos);
  CHECK(s.get("/__admin/orgs").body["orgs"].size() == 1);
}

TEST_CASE("org names, fixtures and the cap are refused with clear 4xx answers", "[orgs]") {
  SeveralOrgs s(3);
  auto status_of = [&](const json& request) {
    auto a = s.post("/__admin/orgs", request);
    CHECK(!a.text.empty());
    return a.status;
  };
  CHECK(status_of({{"name", "bad name"}}) == 400);
  CHECK(status_of({{"name", "-x"}}) == 400);
  CHECK(status_of({{"name", std::string(64, 'a')}}) == 400);
  CHECK(status_of({{"name", 7}}) == 400);
  CHECK(status_of({{"fixture", "nope.yaml"}}) == 400);
  CHECK(status_of({{"fixture", 3}}) == 400);
  CHECK(status_of({{"fixture", {{"org", {{"name", 5}}}}}}) == 400);
  CHECK(status_of({{"login_paths", "yes"}}) == 400);
  CHECK(status_of({{"colour", "red"}}) == 400);
  CHECK(to_orgs_answer(httplib::Client("127.0.0.1", s.embedded().port())
                           .Post("/__admin/orgs", "{not json", "application/json"))
            .status == 400);
  CHECK(status_of({{"name", "default"}}) == 409);  // the root org's name
  // Same client id as the root org, the login paths asked for: refused.
  auto clash = s.post("/__admin/orgs", {{"name", "a"}, {"login_paths", true}});
  CHECK(clash.status == 409);
  CHECK(clash.text.find("local-client") != std::string::npos);
  CHECK(s.create({{"name", "a"}, {"login_paths", false}}) == "a");
  CHECK(status_of({{"name", "a"}, {"login_paths", false}}) == 409);
  // A generated name when none is given.
  const std::string generated = s.create({{"login_paths", false}});
  CHECK(generated.rfind("default-", 0) == 0);
  auto full = s.post("/__admin/orgs", {{"login_paths", false}});
  CHECK(full.status == 409);
  CHECK(full.text.find("--max-orgs") != std::string::npos);
  CHECK(s.del("/__admin/orgs/default").status == 409);
  CHECK(s.del("/__admin/orgs/nobody").status == 404);
  CHECK(s.get("/orgs/nobody/__admin/health").status == 404);
  CHECK(s.get("/orgs/").status == 404);
}

TEST_CASE("a token of one org is 401 on another", "[orgs][isolation]") {
  SeveralOrgs s;
  s.create({{"name", "b"}, {"login_paths", false}});
  const std::string root = s.token(""), b = s.token("/orgs/b");
  CHECK(s.get(kOrgsApi + "/PaymentMethods", root).status == 200);
  CHECK(s.get("/orgs/b" + kOrgsApi + "/PaymentMethods", b).status == 200);
  CHECK(s.get(kOrgsApi + "/PaymentMethods", b).status == 401);
  CHECK(s.get("/orgs/b" + kOrgsApi + "/PaymentMethods", root).status == 401);
  CHECK(s.get("/orgs/b/services/data/v59.0/limits", root).status == 401);
}

TEST_CASE("records, clocks, resets, journals and idempotency keys are per org",
          "[orgs][isolation]") {
  SeveralOrgs s;
  s.create({{"name", "b"}, {"login_paths", false}});
  const std::string root = s.token(""), b = s.token("/orgs/b");
  const size_t before = s.contacts("");
  json body = IntentBody::one_time().idempotency_key("same-key");
  auto in_b = s.api_post("/orgs/b" + kOrgsApi + "/PaymentIntent", body, b);
  REQUIRE(in_b.status == 200);
  CHECK(s.contacts("") == before);
  CHECK(s.contacts("/orgs/b") == before + 1);
  // The same idempotency key in the root org is a new request there.
  auto in_root = s.api_post(kOrgsApi + "/PaymentIntent", body, root);
  REQUIRE(in_root.status == 200);
  CHECK(s.contacts("") == before + 1);
  // Journals: each org's own requests.
  auto journal_b = s.get("/orgs/b/__admin/requests?path=/PaymentIntent");
  REQUIRE(journal_b.status == 200);
  CHECK(journal_b.text.find(in_b.body["Id"].get<std::string>()) != std::string::npos);
  CHECK(journal_b.text.find(in_root.body["Id"].get<std::string>()) == std::string::npos);
  // A clock move and a reset of b leave the root org alone.
  const std::string root_now = s.get("/__admin/clock").body["now"];
  REQUIRE(s.post("/orgs/b/__admin/clock", {{"advance", "30d"}}).status == 200);
  CHECK(s.get("/__admin/clock").body["now"].get<std::string>().substr(0, 10) ==
        root_now.substr(0, 10));
  CHECK(s.get("/orgs/b/__admin/clock").body["now"] != s.get("/__admin/clock").body["now"]);
  REQUIRE(s.post("/orgs/b/__admin/reset", json::object()).status == 200);
  CHECK(s.contacts("/orgs/b") == before);
  CHECK(s.contacts("") == before + 1);
}

TEST_CASE("PSP sessions and webhooks are per org, a hosted page pays under its org",
          "[orgs][isolation]") {
  SeveralOrgs s;
  s.create({{"name", "b"}, {"login_paths", false}});
  const std::string b = s.token("/orgs/b");
  auto created = s.api_post("/orgs/b" + kOrgsApi + "/PaymentIntent", IntentBody::one_time(), b);
  REQUIRE(created.status == 200);
  const std::string redirect = created.body["RedirectURL"];
  REQUIRE(redirect.rfind(s.base() + "/orgs/b/psp/checkout/", 0) == 0);
  const std::string session = redirect.substr(redirect.rfind('/') + 1);
  // The root org has no such session; b's driver completes it, through the
  // PSP's callback to b.
  CHECK(s.post("/__admin/psp/" + session + "/complete", {{"outcome", "success"}}).status == 404);
  auto page = s.get(redirect.substr(s.base().size()));
  REQUIRE(page.status == 200);
  CHECK(page.text.find("action=\"/orgs/b/psp/checkout/" + session) != std::string::npos);
  auto paid = s.form(redirect.substr(s.base().size()),
                     {{"action", "pay"}, {"card_number", "4242424242424242"}});
  INFO(paid.text);
  CHECK(paid.status == 303);
  CHECK(paid.location.rfind("https://shop.example/thanks", 0) == 0);
  auto webhooks = s.get("/orgs/b/__admin/webhooks");
  CHECK(webhooks.status == 200);
  CHECK(s.get("/__admin/webhooks").body["total"] == 0);
}

TEST_CASE("the root login paths serve every org: the client id names it", "[orgs][login]") {
  SeveralOrgs s;
  auto created =
      s.post("/__admin/orgs", {{"fixture", own_app_fixture("shop-client")}, {"name", "shop"}});
  INFO(created.text);
  REQUIRE(created.status == 201);
  auto token = s.form("/login/services/oauth2/token", {{"grant_type", "client_credentials"},
                                                       {"client_id", "shop-client"},
                                                       {"client_secret", "shop-client-secret"}});
  INFO(token.text);
  REQUIRE(token.status == 200);
  CHECK(token.body["instance_url"] == s.base() + "/orgs/shop");
  const std::string t = token.body["access_token"];
  CHECK(s.get("/orgs/shop" + kOrgsApi + "/PaymentMethods", t).status == 200);
  CHECK(s.get(kOrgsApi + "/PaymentMethods", t).status == 401);
  // The root org's own app still logs in at the root, to the root.
  auto root = s.form("/login/services/oauth2/token", {{"grant_type", "client_credentials"},
                                                      {"client_id", "local-client"},
                                                      {"client_secret", "local-secret"}});
  REQUIRE(root.status == 200);
  CHECK(root.body["instance_url"] == s.base());
  // A second org with the same client id is refused.
  auto twice =
      s.post("/__admin/orgs", {{"fixture", own_app_fixture("shop-client")}, {"login_paths", true}});
  CHECK(twice.status == 409);
  CHECK(twice.text.find("shop-client") != std::string::npos);
  // Once the org is gone, its client id is free again.
  REQUIRE(s.del("/__admin/orgs/shop").status == 200);
  CHECK(s.post("/__admin/orgs", {{"fixture", own_app_fixture("shop-client")}}).status == 201);
}

TEST_CASE("the root login paths: the user name names the org the client id does not",
          "[orgs][login]") {
  SeveralOrgs s;
  // A sandbox org: at the production login path it answers invalid_client_id
  // naming its own instance URL, so the answer says which org routed it.
  json shop = own_app_fixture("shop-client");
  shop["org"] = {{"sandbox", true}};
  REQUIRE(s.create({{"fixture", shop}, {"name", "shop"}}) == "shop");
  const std::string kLogin = "/login/services/oauth2/token";
  const std::string kShopHost = s.base() + "/orgs/shop/test/services/oauth2/token";
  // The password grant of a shop user with the shop's app: the shop's token.
  auto password = s.form("/test/services/oauth2/token", {{"grant_type", "password"},
                                                         {"client_id", "shop-client"},
                                                         {"client_secret", "shop-client-secret"},
                                                         {"username", "buyer@shop-client.example"},
                                                         {"password", "buyer-passwordBUYERTOKEN"}});
  INFO(password.text);
  REQUIRE(password.status == 200);
  CHECK(password.body["instance_url"] == s.base() + "/orgs/shop");
  // A client id no org has: the user's org answers, not the first org; the
  // user name's case does not matter.
  auto stranger = s.form(kLogin, {{"grant_type", "password"},
                                  {"client_id", "stranger"},
                                  {"client_secret", "x"},
                                  {"username", "BUYER@Shop-Client.example"},
                                  {"password", "buyer-passwordBUYERTOKEN"}});
  INFO(stranger.text);
  CHECK(stranger.status == 400);
  CHECK(stranger.body["error"] == "invalid_client_id");
  CHECK(stranger.text.find(kShopHost) != std::string::npos);
  // A JWT assertion's subject names it too when its issuer names no org.
  const json claims = {{"iss", "stranger"}, {"sub", "buyer@shop-client.example"}};
  const std::string assertion = crypto::base64url_encode(json{{"alg", "RS256"}}.dump()) + "." +
                                crypto::base64url_encode(claims.dump()) + ".c2ln";
  auto jwt = s.form(kLogin, {{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"},
                             {"assertion", assertion}});
  INFO(jwt.text);
  CHECK(jwt.status == 400);
  CHECK(jwt.text.find(kShopHost) != std::string::npos);
  // The client id decides first: the first org's app with the shop's user
  // is the first org's (which knows no such user).
  auto by_client = s.form(kLogin, {{"grant_type", "password"},
                                   {"client_id", "local-client"},
                                   {"client_secret", "local-secret"},
                                   {"username", "buyer@shop-client.example"},
                                   {"password", "buyer-passwordBUYERTOKEN"}});
  CHECK(by_client.status == 400);
  CHECK(by_client.text.find("/orgs/shop") == std::string::npos);
  // Neither names an org: the first org answers, as before.
  auto nobody = s.form(
      kLogin, {{"grant_type", "password"}, {"username", "nobody@example.org"}, {"password", "x"}});
  CHECK(nobody.status == 400);
  CHECK(nobody.text.find("/orgs/shop") == std::string::npos);
}

TEST_CASE("a shipped fixture, login_paths unsaid: served under its prefix, and told so",
          "[orgs][login]") {
  SeveralOrgs s;
  // The first call anyone tries: default.yaml's client id is the root org's.
  auto created = s.post("/__admin/orgs", {{"fixture", "default.yaml"}});
  INFO(created.text);
  REQUIRE(created.status == 201);
  const std::string name = created.body["name"];
  CHECK(created.body["login_paths"] == false);
  const std::string note = created.body.value("note", "");
  CHECK(note.rfind("Served under /orgs/" + name +
                       " only, not at the login paths: the client id 'local-client' already "
                       "names org 'default' at the login paths (/login, /test). To serve it "
                       "there too, give it its own auth.connected_apps",
                   0) == 0);
  CHECK(note.find("\"login_paths\": true") != std::string::npos);
  // It answers under its prefix; the root login paths still name the root org.
  const std::string t = s.token("/orgs/" + name);
  CHECK(s.get("/orgs/" + name + kOrgsApi + "/PaymentMethods", t).status == 200);
  auto root = s.form("/login/services/oauth2/token", {{"grant_type", "client_credentials"},
                                                      {"client_id", "local-client"},
                                                      {"client_secret", "local-secret"}});
  REQUIRE(root.status == 200);
  CHECK(root.body["instance_url"] == s.base());
  auto listed = s.get("/__admin/orgs");
  bool found = false;
  for (const auto& org : listed.body["orgs"])
    if (org["name"] == name) found = org["login_paths"] == false;
  CHECK(found);
  // A second and a third, the same way (a client's throwaway orgs).
  CHECK(s.post("/__admin/orgs", {{"fixture", "default.yaml"}}).status == 201);
  CHECK(s.post("/__admin/orgs", {{"fixture", "nonprofit.yaml"}}).status == 201);
  // Nothing collides: served at the login paths, no note.
  auto own = s.post("/__admin/orgs", {{"fixture", own_app_fixture("own-client")}});
  REQUIRE(own.status == 201);
  CHECK(own.body["login_paths"] == true);
  CHECK_FALSE(own.body.contains("note"));
  // Asked for explicitly, the collision is refused, naming the client id.
  auto asked = s.post("/__admin/orgs", {{"fixture", "default.yaml"}, {"login_paths", true}});
  CHECK(asked.status == 409);
  CHECK(asked.body[0]["message"].get<std::string>().rfind(
            "the client id 'local-client' already names org 'default' at the login paths", 0) == 0);
}

TEST_CASE("an org whose user name another org has at the login paths is refused", "[orgs][login]") {
  SeveralOrgs s;
  REQUIRE(s.create({{"fixture", own_app_fixture("shop-client")}, {"name", "shop"}}) == "shop");
  // Its own client id, the shop's users: 409 naming the user and the org.
  auto twice = s.post("/__admin/orgs", {{"fixture", own_app_fixture("other-client", "shop-client")},
                                        {"name", "b"},
                                        {"login_paths", true}});
  INFO(twice.text);
  CHECK(twice.status == 409);
  CHECK(twice.body[0]["errorCode"] == "DUPLICATE_VALUE");
  CHECK(twice.body[0]["message"].get<std::string>().rfind(
            "the user name 'integration@shop-client.example' already names org 'shop' at the "
            "login paths (/login, /test): give this org's connected apps other client_ids and "
            "its users other usernames",
            0) == 0);
  // The first org's users, inherited from default.yaml, clash the same way.
  json inherited = own_app_fixture("other-client");
  inherited["auth"].erase("users");
  auto first = s.post("/__admin/orgs", {{"fixture", inherited}, {"login_paths", true}});
  CHECK(first.status == 409);
  CHECK(first.text.find("'integration@local-fake-org.example' already names org 'default'") !=
        std::string::npos);
  // Under its prefix only, it is served; once the shop is gone, its users are free.
  CHECK(s.post("/__admin/orgs", {{"fixture", own_app_fixture("other-client", "shop-client")},
                                 {"login_paths", false}})
            .status == 201);
  REQUIRE(s.del("/__admin/orgs/shop").status == 200);
  CHECK(s.post("/__admin/orgs", {{"fixture", own_app_fixture("other-client", "shop-client")}})
            .status == 201);
}

TEST_CASE("two orgs driven from 16 threads: nothing crosses over", "[orgs][isolation][load]") {
  SeveralOrgs s;
  s.create({{"name", "b"}, {"login_paths", false}});
  const int port = s.embedded().port();
  const std::string tokens[2] = {s.token(""), s.token("/orgs/b")};
  const std::string prefixes[2] = {"", "/orgs/b"};
  const size_t before = s.contacts("");
  constexpr int kThreads = 16, kEach = 10;
  std::mutex mu;
  std::set<std::string> ids[2];
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const int org = t % 2;
      httplib::Client c("127.0.0.1", port);
      httplib::Headers h{{"Authorization", "Bearer " + tokens[org]}};
      for (int i = 0; i < kEach; ++i) {
        json body = IntentBody::one_time(sepa_debit())
                        .contact({{"FirstName", "Ada"},
                                  {"LastName", "T" + std::to_string(t)},
                                  {"Email", "t" + std::to_string(t) + "-" + std::to_string(i) +
                                                "@example.org"}});
        auto r =
            c.Post(prefixes[org] + kOrgsApi + "/PaymentIntent", h, body.dump(), "application/json");
        // The other org's token is refused here.
        httplib::Headers other{{"Authorization", "Bearer " + tokens[1 - org]}};
        auto refused = c.Get(prefixes[org] + kOrgsApi + "/PaymentMethods", other);
        if (!r || r->status != 200 || !refused || refused->status != 401) {
          ++failures;
          continue;
        }
        std::lock_guard lock(mu);
        ids[org].insert(json::parse(r->body)["Id"].get<std::string>());
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(failures == 0);
  const size_t per_org = kThreads / 2 * kEach;
  CHECK(ids[0].size() == per_org);
  CHECK(ids[1].size() == per_org);
  for (int org = 0; org < 2; ++org) {
    CHECK(s.contacts(prefixes[org]) == before + per_org);
    auto journal = s.get(prefixes[org] + "/__admin/requests?path=/PaymentIntent&limit=1000");
    for (const auto& id : ids[1 - org]) CHECK(journal.text.find(id) == std::string::npos);
  }
  for (int org = 0; org < 2; ++org) {
    for (const auto& id : ids[org]) {
      auto read = s.get(prefixes[1 - org] + kOrgsApi + "/PaymentIntent/" + id, tokens[1 - org]);
      CHECK(read.status == 404);
    }
  }
}

TEST_CASE("an org keeps its own body limit and its dashboard links within it", "[orgs]") {
  SeveralOrgs s;
  json narrow = {{"extends", "default.yaml"}, {"org", {{"max_body_bytes", 2048}}}};
  s.create({{"name", "narrow"}, {"fixture", narrow}, {"login_paths", false}});
  const std::string t = s.token("/orgs/narrow");
  json big = IntentBody::one_time().set("CrmFields", {{"cpm__Origin__c", std::string(3000, 'x')}});
  auto refused = s.api_post("/orgs/narrow" + kOrgsApi + "/PaymentIntent", big, t);
  CHECK(refused.status == 413);
  CHECK(refused.text.find("2048 bytes") != std::string::npos);
  CHECK(s.api_post(kOrgsApi + "/PaymentIntent", big, s.token("")).status != 413);

  auto page = s.get("/orgs/narrow/__admin/ui");
  REQUIRE(page.status == 200);
  CHECK(page.text.find("href=\"/orgs/narrow/__admin/ui/requests\"") != std::string::npos);
  CHECK(page.text.find("\"POST /orgs/narrow/__admin/clock\"") != std::string::npos);
  CHECK(page.text.find("href=\"/__admin/") == std::string::npos);
  auto root = s.get("/__admin/ui");
  CHECK(root.text.find("href=\"/__admin/ui/requests\"") != std::string::npos);
}
