// A body nested 100,000 levels deep (QA: it killed fake-org with SIGSEGV on
// POST /PaymentIntent). Every entry point that parses or shows a body answers
// it like any malformed body, and the org answers afterwards.
#include <catch2/catch.hpp>

#include "events/psp_signature.h"
#include "http/request_journal.h"
#include "testing/test_org.h"
#include "util/json_depth.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

std::string nested(size_t depth) {
  return "{\"a\":" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
}

const std::string& deep_body() {
  static const std::string body = nested(100000);
  return body;
}

void check_refused(const Response& r) {
  INFO(r.body);
  CHECK(r.status == 400);
  REQUIRE(r.json.contains("Errors"));
  CHECK(code_of(r) == "010");
  CHECK(message_of(r).find(std::to_string(http::kMaxJsonDepth)) != std::string::npos);
}

void check_alive(TestOrg& t) {
  auto r = t.get("/PaymentMethods");
  INFO(r.body);
  CHECK(r.status == 200);
}

}  // namespace

TEST_CASE("a body nested 100,000 deep is 010 on POST /PaymentIntent", "[deep_body]") {
  TestOrg t(fixture("default.yaml"));
  check_refused(t.post_raw("/PaymentIntent", deep_body()));
  check_alive(t);
}

TEST_CASE("a body nested 100,000 deep is a 010 failure body on POST /Payment (decision 31)",
          "[deep_body]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post_raw("/Payment", deep_body());
  INFO(r.body);
  CHECK(r.status == 200);
  CHECK(r.json["ResponseCode"] == "010");
  CHECK(r.json["IsSuccess"] == false);
  check_alive(t);
}

TEST_CASE("a body nested 100,000 deep is 400 on the admin's POST endpoints", "[deep_body]") {
  TestOrg t(fixture("default.yaml"));
  for (const std::string path : {"/__admin/records/Contact", "/__admin/faults", "/__admin/clock"}) {
    INFO(path);
    check_refused(t.post_raw(path, deep_body(), false));
  }
  check_alive(t);
}

TEST_CASE("a signed PSP callback nested 100,000 deep is 400", "[deep_body][psp]") {
  TestOrg t(fixture("default.yaml"));
  httplib::Headers headers{
      {kPspSignatureHeader, psp_signature(t.org().psp_callback_secret(), unix_now(), deep_body())}};
  auto r = t.client().Post("/psp/callback", headers, deep_body(), "application/json");
  REQUIRE(r);
  INFO(r->body);
  CHECK(r->status == 400);
  CHECK(json::parse(r->body)["Errors"][0]["error_code"] == "010");
  check_alive(t);
}

TEST_CASE("the journal shows a body nested 100,000 deep as its size, not parsed",
          "[deep_body][journal]") {
  TestOrg t(fixture("default.yaml"));
  // The OAuth endpoint refuses a JSON body without parsing it, so the deep
  // body reaches the journal's redaction as it was sent: as deep as the
  // journal keeps (kJournalBodyLimit bytes), and for a form as deep as
  // httplib reads one (8 KiB, else 413).
  const std::string as_json_body = nested(http::kJournalBodyLimit / 2 - 4);
  const std::string as_form_body = nested(4000);
  REQUIRE(as_json_body.size() <= http::kJournalBodyLimit);
  REQUIRE(as_form_body.size() <= 8192);
  for (const auto& [body, type] : {std::pair{&as_json_body, "application/json"},
                                   std::pair{&as_form_body, "application/x-www-form-urlencoded"}}) {
    auto token = t.client().Post("/services/oauth2/token", *body, type);
    REQUIRE(token);
    CHECK(token->status == 400);
  }
  auto r = t.get("/__admin/requests?path=/services/oauth2/token", false);
  INFO(r.body.substr(0, 2000));
  REQUIRE(r.status == 200);
  REQUIRE(r.json["requests"].size() == 2);
  const json& as_json = r.json["requests"][0]["body"];
  REQUIRE(as_json.is_string());
  CHECK(as_json.get<std::string>().find("nested more than 512 levels deep") != std::string::npos);
  // A form is redacted as a form and shown as text.
  CHECK(r.json["requests"][1]["body"].is_string());
  check_alive(t);
}

TEST_CASE("the debug log shows a body nested 100,000 deep as its size, not parsed",
          "[deep_body][log]") {
  EmbeddedOptions options;
  options.log_level = http::LogLevel::kDebug;
  TestOrg t(fixture("default.yaml"), options);
  auto token = t.client().Post("/services/oauth2/token", deep_body(), "application/json");
  REQUIRE(token);
  CHECK(token->status == 400);
  check_alive(t);
}
