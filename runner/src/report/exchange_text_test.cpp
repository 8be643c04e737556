// --verbose prints what was sent and answered, never a secret.
#include <catch2/catch.hpp>

#include <sstream>

#include "report/console_report.h"
#include "report/exchange_text.h"

using namespace runner;

namespace {

ScenarioResult token_scenario() {
  StepResult s;
  s.name = "take a token";
  s.outcome = Outcome::kPassed;
  Exchange ex;
  ex.request = {"POST",
                "http://127.0.0.1:9/services/oauth2/token",
                {{"Content-Type", "application/x-www-form-urlencoded"}},
                "grant_type=client_credentials&client_id=app&client_secret=s3cr3t"};
  HttpResponse response;
  response.status = 200;
  response.headers = {{"Content-Type", "application/json"}};
  response.body =
      R"({"access_token":"00Dtok","instance_url":"http://x","card":"4111111111111111"})";
  ex.response = response;
  s.exchange = ex;
  ScenarioResult r;
  r.file = "scenarios/x.yaml";
  r.name = "x";
  r.outcome = Outcome::kPassed;
  r.steps.push_back(s);
  return r;
}

}  // namespace

TEST_CASE("verbose: each step shows its bodies with secrets redacted", "[runner][reports]") {
  std::ostringstream out;
  ConsoleReport console(out, true);
  console.progress(token_scenario(), 1, 1);
  const std::string text = out.str();
  INFO(text);
  CHECK(text.find("> POST http://127.0.0.1:9/services/oauth2/token") != std::string::npos);
  CHECK(text.find("client_id=app&client_secret=[redacted]") != std::string::npos);
  CHECK(text.find("< 200") != std::string::npos);
  CHECK(text.find(R"("access_token":"[redacted]")") != std::string::npos);
  CHECK(text.find(R"("instance_url":"http://x")") != std::string::npos);
  for (const char* secret : {"s3cr3t", "00Dtok", "4111111111111111"}) {
    INFO(secret);
    CHECK(text.find(secret) == std::string::npos);
  }
}

TEST_CASE("verbose: without --verbose no body is printed", "[runner][reports]") {
  std::ostringstream out;
  ConsoleReport console(out, false);
  console.progress(token_scenario(), 1, 1);
  CHECK(out.str().find("client_id") == std::string::npos);
}

TEST_CASE("verbose: a long body is cut, saying how much is left out", "[runner][reports]") {
  ScenarioResult r = token_scenario();
  r.steps[0].exchange->response->body = "\"" + std::string(5000, 'a') + "\"";
  const std::string text = exchange_text(r.steps[0]);
  CHECK(text.find("... (3002 more characters; --report-json keeps them)") != std::string::npos);
}
