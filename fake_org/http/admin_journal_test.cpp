// GET/DELETE /__admin/requests: the request journal (what the org received,
// redacted like the debug log), its filters, bound and reset.
#include <catch2/catch.hpp>

#include "http/request_journal.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

IntentBody card_payment(const std::string& last_name) {
  return IntentBody::one_time().contact({{"LastName", last_name}});
}

json journal(TestOrg& t, const std::string& query = "") {
  auto r = t.get("/__admin/requests" + query, false);
  INFO(r.body);
  REQUIRE(r.status == 200);
  return r.json["requests"];
}

}  // namespace

TEST_CASE("the journal lists API and OAuth requests oldest first, redacted, admin ones left out",
          "[http][admin][journal]") {
  auto clock = std::make_shared<ManualClock>(*parse_iso8601("2027-01-31T09:00:00Z"));
  EmbeddedOptions options;
  options.deps.base_clock = clock;
  TestOrg t(fixture("default.yaml"), options);
  t.token();  // POST /services/oauth2/token
  auto created = t.post("/PaymentIntent", card_payment("Journal"));
  REQUIRE(created.status == 200);
  std::string pi = created.json["Id"];
  // Refused (the processor has no such parameter), and journaled redacted all the same.
  json with_card = card_payment("Journal");
  with_card["PaymentMethod"]["Parameters"] = {{"CardNumber", "4111"}};
  REQUIRE(t.post("/PaymentIntent", with_card).status == 422);
  REQUIRE(t.get("/PaymentMethods?Currency=EUR&access_token=abc").status == 200);
  REQUIRE(t.get("/__admin/health", false).status == 200);

  json all = journal(t);
  REQUIRE(all.size() == 4);
  const json& token = all[0];
  CHECK(token["seq"] == 1);
  CHECK(token["method"] == "POST");
  CHECK(token["path"] == "/services/oauth2/token");
  CHECK(token["status"] == 200);
  // A form body with its secret redacted, as the debug log shows it.
  std::string form = token["body"];
  CHECK(form.find("client_secret=[redacted]") != std::string::npos);
  CHECK(form.find("grant_type=client_credentials") != std::string::npos);

  const json& post = all[1];
  CHECK(post["seq"] == 2);
  CHECK(post["method"] == "POST");
  CHECK(post["path"] == t.org().config().base_path() + "/PaymentIntent");
  CHECK(post["query"] == "");
  CHECK(post["status"] == 200);
  CHECK(post["payment_intent"] == pi);
  CHECK(post["injected_fault"] == false);
  CHECK(post["received_at"] == "2027-01-31T09:00:00.000Z");  // the org clock
  CHECK(post["received_at_wall"].get<std::string>().size() == 24);
  // Real time, so only its presence and type: no timing assertions.
  CHECK(post["duration_ms"].is_number_float());
  CHECK(post["headers"]["Authorization"] == "Bearer [redacted]");
  CHECK(post["headers"]["Content-Type"] == "application/json");
  CHECK(post["headers"].count("REMOTE_ADDR") == 0);  // httplib's, not the client's
  CHECK(post["body"]["Payer"]["Contact"]["CrmFields"]["LastName"] == "Journal");
  CHECK(all.dump().find(t.token()) == std::string::npos);
  const json& refused = all[2];
  CHECK(refused["status"] == 422);
  CHECK(refused["payment_intent"].is_null());
  CHECK(refused["body"]["PaymentMethod"]["Parameters"]["CardNumber"] == "[redacted]");

  const json& get = all[3];
  CHECK(get["method"] == "GET");
  CHECK(get["query"] == "Currency=EUR&access_token=[redacted]");
  CHECK(get["payment_intent"].is_null());
  CHECK(get["body"].is_null());
}

TEST_CASE("journal headers: credentials without a scheme and secret-named headers are redacted",
          "[http][admin][journal]") {
  TestOrg t(fixture("default.yaml"));
  const std::string token = t.token();
  httplib::Headers headers{
      {"Authorization", token},           {"Proxy-Authorization", "Basic dXNlcjpwYXNz"},
      {"Cookie", "sid=cookie-secret"},    {"X-Api-Key", "api-key-secret"},
      {"X-Session-Id", "session-secret"}, {"X-Auth-Token", "auth-secret"},
      {"X-Request-Id", "req-42"}};
  REQUIRE(t.client().Get((t.org().config().base_path() + "/PaymentMethods").c_str(), headers));
  json all = journal(t, "?path=/PaymentMethods");
  REQUIRE(all.size() == 1);
  const json& h = all[0]["headers"];
  INFO(h.dump(1));
  CHECK(h["Authorization"] == "[redacted]");
  CHECK(h["Proxy-Authorization"] == "Basic [redacted]");
  CHECK(h["Cookie"] == "[redacted]");
  CHECK(h["X-Api-Key"] == "[redacted]");
  CHECK(h["X-Session-Id"] == "[redacted]");
  CHECK(h["X-Auth-Token"] == "[redacted]");
  // Ordinary headers stay visible.
  CHECK(h["X-Request-Id"] == "req-42");
  CHECK(h["Host"].is_string());
  for (const char* secret :
       {"dXNlcjpwYXNz", "cookie-secret", "api-key-secret", "session-secret", "auth-secret"})
    CHECK(all.dump().find(secret) == std::string::npos);
  CHECK(all.dump().find(token) == std::string::npos);
}

TEST_CASE("journal: JSON sent with a form content type (curl -d) is redacted as JSON",
          "[http][admin][journal]") {
  TestOrg t(fixture("default.yaml"));
  json body = card_payment("Form");
  body["PaymentMethod"]["Parameters"]["CardNumber"] = "4111111111111111";
  httplib::Headers headers{{"Authorization", "Bearer " + t.token()}};
  REQUIRE(t.client().Post((t.org().config().base_path() + "/PaymentIntent").c_str(), headers,
                          body.dump(), "application/x-www-form-urlencoded"));
  json all = journal(t, "?method=POST&path=/PaymentIntent");
  REQUIRE(all.size() == 1);
  INFO(all.dump(1));
  CHECK(all[0]["body"]["PaymentMethod"]["Parameters"]["CardNumber"] == "[redacted]");
  CHECK(all[0]["body"]["Payer"]["Contact"]["CrmFields"]["LastName"] == "Form");
  CHECK(all.dump().find("4111111111111111") == std::string::npos);
}

TEST_CASE("journal headers: long values are cut and headers past the cap only counted",
          "[http][admin][journal]") {
  TestOrg t(fixture("default.yaml"));
  httplib::Headers headers{{"Authorization", "Bearer " + t.token()},
                           {"X-Long", std::string(5000, 'v')}};
  headers.emplace("A-" + std::string(2000, 'n'), "long name");
  for (size_t i = 0; i < http::kJournalHeaderCount + 10; ++i)
    headers.emplace("X-Extra-" + std::to_string(1000 + i), "e");
  REQUIRE(t.client().Get((t.org().config().base_path() + "/PaymentMethods").c_str(), headers));
  json all = journal(t, "?path=/PaymentMethods");
  REQUIRE(all.size() == 1);
  const json& h = all[0]["headers"];
  CHECK(h.size() == http::kJournalHeaderCount + 1);  // the cap, and the count of the rest
  CHECK(h["A-" + std::string(http::kJournalHeaderNameLimit - 2, 'n')] == "long name");
  // 3 + kJournalHeaderCount + 10 sent, and the client's own (Host, Accept, ...).
  CHECK(std::stoul(h[http::kJournalHeadersDropped].get<std::string>()) >= 13);
}

TEST_CASE("journal: a long header value is cut and marked", "[http][admin][journal]") {
  TestOrg t(fixture("default.yaml"));
  httplib::Headers headers{{"Authorization", "Bearer " + t.token()},
                           {"X-Long", std::string(5000, 'v')}};
  REQUIRE(t.client().Get((t.org().config().base_path() + "/PaymentMethods").c_str(), headers));
  json all = journal(t, "?path=/PaymentMethods");
  REQUIRE(all.size() == 1);
  CHECK(all[0]["headers"]["X-Long"] ==
        std::string(http::kJournalHeaderValueLimit, 'v') + "...[truncated, 5000 bytes]");
}

TEST_CASE(
    "journal filters: method, path (whole or relative, segment prefix), payment_intent, limit",
    "[http][admin][journal]") {
  TestOrg t(fixture("default.yaml"));
  auto a = t.post("/PaymentIntent", card_payment("A"));
  auto b = t.post("/PaymentIntent", card_payment("B"));
  REQUIRE(a.status == 200);
  REQUIRE(b.status == 200);
  std::string pa = a.json["Id"], pb = b.json["Id"];
  REQUIRE(t.get("/PaymentIntent/" + pa).status == 200);
  REQUIRE(t.get("/PaymentMethods").status == 200);

  CHECK(journal(t).size() == 5);  // the token request too
  CHECK(journal(t, "?method=GET").size() == 2);
  CHECK(journal(t, "?method=get").empty());  // methods are exact
  json intents = journal(t, "?path=/PaymentIntent");
  REQUIRE(intents.size() == 3);  // both POSTs and the GET under it
  CHECK(journal(t, "?path=" + t.org().config().base_path() + "/PaymentIntent").size() == 3);
  CHECK(journal(t, "?path=/PaymentInt").empty());  // whole segments only
  CHECK(journal(t, "?path=/services/oauth2").size() == 1);
  json of_a = journal(t, "?payment_intent=" + pa);
  REQUIRE(of_a.size() == 2);
  CHECK(of_a[0]["method"] == "POST");
  CHECK(of_a[1]["method"] == "GET");
  json last = journal(t, "?method=POST&path=/PaymentIntent&limit=1");
  REQUIRE(last.size() == 1);
  CHECK(last[0]["payment_intent"] == pb);  // the newest match
  CHECK(journal(t, "?limit=0").empty());
  auto bad = t.get("/__admin/requests?limit=many", false);
  CHECK(bad.status == 400);
  CHECK(message_of(bad) == "'limit' must be a whole number such as 20; got 'many'");
}

TEST_CASE("journal: unauthenticated and unknown requests are journaled with their status",
          "[http][admin][journal]") {
  TestOrg t(fixture("default.yaml"));
  REQUIRE(t.get("/PaymentMethods", false).status == 401);
  REQUIRE(t.get("/NoSuchThing").status == 404);
  REQUIRE(t.client().Get("/psp/checkout/nothing"));  // not the API: not journaled
  json all = journal(t);
  INFO(all.dump(1));
  REQUIRE(all.size() == 3);
  CHECK(all[0]["status"] == 401);
  CHECK(all[0]["headers"].count("Authorization") == 0);
  CHECK(all[1]["path"] == "/services/oauth2/token");
  CHECK(all[2]["status"] == 404);
}

TEST_CASE("a body over the journal's limit is shown by its size only", "[http][admin][journal]") {
  TestOrg t(fixture("default.yaml"));
  std::string big = "{\"Origin\": \"" + std::string(http::kJournalBodyLimit, 'x') + "\"}";
  REQUIRE(t.post_raw("/PaymentIntent", big).status != 0);
  json post = journal(t, "?method=POST&path=/PaymentIntent");
  REQUIRE(post.size() == 1);
  CHECK(post[0]["body"] == "(" + std::to_string(big.size()) +
                               " bytes of application/json; the journal keeps bodies up to 65536 "
                               "bytes)");
}

TEST_CASE("DELETE /__admin/requests and the admin reset clear the journal, seq restarts",
          "[http][admin][journal]") {
  TestOrg t(fixture("default.yaml"));
  t.token();
  REQUIRE(t.send("DELETE", "/__admin/requests", "", false).status == 200);
  // A POST with a query, a body and a payment intent in the first slot.
  REQUIRE(t.post("/PaymentIntent?x=1", json{{"OneTime", {{"Amount", 1}}}}).status != 0);
  REQUIRE(journal(t).size() == 1);
  REQUIRE(journal(t)[0]["query"] == "x=1");
  auto cleared = t.send("DELETE", "/__admin/requests", "", false);
  CHECK(cleared.status == 200);
  CHECK(cleared.json == json::parse(R"({"requests":[]})"));
  CHECK(journal(t).empty());
  REQUIRE(t.get("/PaymentMethods").status == 200);
  json after = journal(t);
  REQUIRE(after.size() == 1);
  CHECK(after[0]["seq"] == 1);
  // The entry reuses the first slot: nothing of the POST that held it before.
  CHECK(after[0]["method"] == "GET");
  CHECK(after[0]["query"] == "");
  CHECK(after[0]["body"].is_null());
  CHECK(after[0]["payment_intent"].is_null());
  CHECK(after[0]["headers"].count("Content-Type") == 0);
  CHECK(after[0]["headers"].count("Content-Length") == 0);
  REQUIRE(t.post("/__admin/reset", json::object(), false).status == 200);
  CHECK(journal(t).empty());
}

TEST_CASE("the journal keeps only the newest entries up to its capacity", "[admin][journal]") {
  http::RequestJournal j("/api", 3);
  for (int i = 0; i < 2; ++i) j.record({});
  j.clear();  // the ring keeps its slots and fills them again
  for (int i = 0; i < 5; ++i) {
    http::JournalEntry e;
    e.method = "GET";
    e.path = "/api/x/" + std::to_string(i);
    j.record(std::move(e));
  }
  auto all = j.list({});
  REQUIRE(all.size() == 3);
  CHECK(all[0]->path == "/api/x/2");
  CHECK(all[0]->seq == 3);
  CHECK(all[2]->path == "/api/x/4");
  // A listing's entries stay as they were while the ring moves on under them.
  for (int i = 5; i < 8; ++i) {
    http::JournalEntry e;
    e.path = "/api/x/" + std::to_string(i);
    j.record(std::move(e));
  }
  CHECK(all[0]->path == "/api/x/2");
  CHECK(all[2]->path == "/api/x/4");
  auto now = j.list({});
  REQUIRE(now.size() == 3);
  CHECK(now[0]->path == "/api/x/5");
  CHECK(now[2]->path == "/api/x/7");
  CHECK(j.covers("/api/x"));
  CHECK(j.covers("/services/oauth2/token"));
  CHECK_FALSE(j.covers("/apix"));
  CHECK_FALSE(j.covers("/psp/checkout/1"));
}

TEST_CASE("journal: a reset frees its entries rather than keeping them for reuse",
          "[http][admin][journal]") {
  http::RequestJournal journal("/services/apexrest/cpm/v2", 4);
  for (int i = 0; i < 3; ++i) {
    http::JournalEntry e;
    e.method = "GET";
    e.path = "/services/apexrest/cpm/v2/PaymentMethods";
    journal.record(std::move(e));
  }
  auto held = journal.list({});
  REQUIRE(held.size() == 3);
  CHECK(held[0].use_count() == 2);  // the listing and the ring
  journal.clear();
  CHECK(held[0].use_count() == 1);  // only the listing: the ring let go
  CHECK(journal.list({}).empty());
}
