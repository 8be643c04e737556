// The generaliser on hand-made exchanges: captures where ids first appear,
// references later, secrets never written, and the file loads.
#include <algorithm>
#include <sstream>

#include <catch2/catch.hpp>

#include "commands/record/generaliser.h"
#include "commands/record/write_scenario.h"
#include "commands/record/yaml_emit.h"
#include "json/yaml_json.h"
#include "scenario/loader.h"
#include "testing/temp_dir.h"

using namespace runner;
using namespace runner::record;
using runner::testing::TempDir;

namespace {

RecordedExchange ex(std::string method, std::string target, std::string req_body, int status,
                    std::string resp_body, bool auth = true) {
  RecordedExchange e;
  e.method = std::move(method);
  e.target = std::move(target);
  e.request_body = std::move(req_body);
  if (!e.request_body.empty()) e.request_headers.push_back({"Content-Type", "application/json"});
  if (auth) e.request_headers.push_back({"Authorization", "Bearer tok-SECRET-123456"});
  e.authenticated = auth;
  e.status = status;
  e.response_body = std::move(resp_body);
  e.response_headers.push_back({"Content-Type", "application/json"});
  return e;
}

const char* kApi = "/services/apexrest/cpm/v2";

std::vector<RecordedExchange> flow() {
  std::vector<RecordedExchange> v;
  RecordedExchange token = ex(
      "POST", "/services/oauth2/token",
      "grant_type=client_credentials&client_id=local-client&client_secret=s3cr3t-value", 200,
      R"j({"access_token":"tok-SECRET-123456","token_type":"Bearer","issued_at":"1795000000000","instance_url":"https://org.example"})j",
      false);
  token.request_headers = {{"Content-Type", "application/x-www-form-urlencoded"}};
  v.push_back(token);
  v.push_back(ex(
      "POST", std::string(kApi) + "/PaymentIntent",
      R"j({"IdempotencyKey":"6f1c2d3e-1111-4222-8333-944445555666","OneTime":{"Amount":25},"PaymentMethod":{"Name":"SEPA Direct Debit","Parameters":{"IBAN":"DE89370400440532013000"}}})j",
      200,
      R"j({"Id":"pi_abc123def456","PaymentMethod":{"Name":"SEPA Direct Debit","Parameters":{"IBAN":"DE89370400440532013000"}}})j"));
  v.push_back(ex(
      "GET", std::string(kApi) + "/PaymentIntent/pi_abc123def456", "", 200,
      R"j({"Id":"pi_abc123def456","Status":"New","CreatedDate":"2026-11-22T06:00:00Z","OneTime":{"Id":"a0X7Q00000AbCdEUAV","Status":"Outstanding"}})j"));
  v.push_back(ex(
      "GET", std::string(kApi) + "/Installment/a0X7Q00000AbCdEUAV", "", 200,
      R"j({"Id":"a0X7Q00000AbCdEUAV","Message":"Created for pi_abc123def456 today","Count":"010"})j"));
  return v;
}

}  // namespace

TEST_CASE("generalised recordings capture generated ids and write no secrets", "[record]") {
  GeneraliseOptions o;
  o.fixture = "default.yaml";
  Generalised g = generalise(flow(), o);
  const std::string text = scenario_yaml(g);
  INFO(text);
  CHECK(text.find("s3cr3t-value") == std::string::npos);
  CHECK(text.find("tok-SECRET-123456") == std::string::npos);
  CHECK(text.find("DE89370400440532013000") == std::string::npos);
  CHECK(text.find("pi_abc123def456") == std::string::npos);
  CHECK(text.find("a0X7Q00000AbCdEUAV") == std::string::npos);
  CHECK(text.find("${env:ORG_CLIENT_SECRET}") != std::string::npos);
  CHECK(text.find("${env:IBAN}") != std::string::npos);
  CHECK(text.find("GET /PaymentIntent/${pi}") != std::string::npos);
  CHECK(text.find("GET /Installment/${onetime_id}") != std::string::npos);
  CHECK(g.env == std::vector<std::string>{"ORG_CLIENT_SECRET", "IBAN"});

  LoadResult r = load_scenario_text(text, "recorded.yaml");
  std::string errors;
  for (const auto& e : r.errors) errors += e.str() + "\n";
  INFO(errors);
  REQUIRE(r.ok());
  const Scenario& s = *r.scenario;
  REQUIRE(s.steps.size() == 4);
  CHECK(std::get<RequestStep>(s.steps[0].body).request.auth == false);
  REQUIRE(s.steps[1].captures.size() == 1);
  CHECK(s.steps[1].captures[0].var == "pi");
  CHECK(s.steps[1].captures[0].path == "$.Id");
  const auto& third = std::get<RequestStep>(s.steps[2].body).expect;
  REQUIRE(third.json);
  CHECK((*third.json)["Id"] == "${pi}");
  CHECK((*third.json)["Status"] == "New");
  CHECK_FALSE(third.json->contains("CreatedDate"));  // volatile, dropped unless --strict
  const auto& fourth = std::get<RequestStep>(s.steps[3].body).expect;
  CHECK((*fourth.json)["Count"] == "010");  // stays text through YAML
  CHECK(s.vars.size() == 1);
}

TEST_CASE("strict generalising (--strict) keeps volatile values as matchers and objects exact",
          "[record]") {
  GeneraliseOptions o;
  o.strict = true;
  std::string text = scenario_yaml(generalise(flow(), o));
  INFO(text);
  LoadResult r = load_scenario_text(text, "recorded.yaml");
  REQUIRE(r.ok());
  const auto& third = std::get<RequestStep>(r.scenario->steps[2].body).expect;
  CHECK(third.exact);
  CHECK((*third.json)["CreatedDate"].contains("$regex"));
}

TEST_CASE("masked card numbers and kept test numbers", "[record]") {
  std::vector<RecordedExchange> v = {ex(
      "POST", std::string(kApi) + "/PaymentIntent",
      R"j({"PaymentMethod":{"Name":"CreditCard","Parameters":{"CardNumber":"4242424242424242"}}})j",
      200, R"j({"Id":"pi_x1"})j")};
  GeneraliseOptions o;
  o.cards = SecretMode::kMask;
  std::string masked = scenario_yaml(generalise(v, o));
  CHECK(masked.find("4242XXXXXXXX4242") != std::string::npos);
  o.cards = SecretMode::kKeep;
  CHECK(scenario_yaml(generalise(v, o)).find("4242424242424242") != std::string::npos);
}

TEST_CASE("YAML output reads back as the same JSON", "[record]") {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(
      R"j({"a":"010","b":"true","c":"12.5","d":12.5,"e":"","f":"x: y","g":{"$regex":"^[0-9]{4}-x$"},"h":["1",2,null,"${v}"],"i":"${v}/z","j":"- item","k":"#x","l":false})j");
  YAML::Node n = YAML::Load(to_yaml(doc));
  CHECK(yaml_to_json(n) == nlohmann::json::parse(doc.dump()));
}

TEST_CASE("a 401 to a credential the client sent replays with a refused one, not the runner's",
          "[record]") {
  RecordedExchange refused =
      ex("GET", std::string(kApi) + "/PaymentMethods", "", 401,
         R"j([{"errorCode":"INVALID_SESSION_ID","message":"Session expired or invalid"}])j", false);
  refused.request_headers.push_back({"Authorization", "Bearer expired-tok-987654"});
  refused.authenticated = true;
  std::vector<RecordedExchange> v = {
      refused, ex("GET", std::string(kApi) + "/PaymentMethods", "", 200, R"j([])j")};
  const std::string text = scenario_yaml(generalise(v, {}));
  INFO(text);
  CHECK(text.find("expired-tok-987654") == std::string::npos);
  LoadResult r = load_scenario_text(text, "recorded.yaml");
  REQUIRE(r.ok());
  REQUIRE(r.scenario->steps.size() == 2);
  const auto& first = std::get<RequestStep>(r.scenario->steps[0].body).request;
  CHECK_FALSE(first.auth);
  CHECK(first.headers == StringPairs{{"Authorization", "Bearer invalid"}});
  // A 200 to the client's token replays with the runner's token, as before.
  const auto& second = std::get<RequestStep>(r.scenario->steps[1].body).request;
  CHECK(second.auth);
  CHECK(second.headers.empty());
}

TEST_CASE("card numbers inside longer text are secrets too, and never written", "[record]") {
  std::vector<RecordedExchange> v = {
      ex("POST", std::string(kApi) + "/PaymentIntent",
         R"j({"Note":"card 4111111111111111","Memo":"paid by 4111 1111 1111 1111"})j", 200,
         R"j({"Id":"pi_x1","Note":"card 4111111111111111"})j")};
  Generalised g = generalise(v, {});
  const std::string text = scenario_yaml(g);
  INFO(text);
  CHECK(text.find("4111111111111111") == std::string::npos);
  CHECK(text.find("4111 1111 1111 1111") == std::string::npos);
  CHECK(text.find("card ${env:CARD_NUMBER}") != std::string::npos);
  CHECK(text.find("paid by ${env:CARD_NUMBER_2}") != std::string::npos);
  CHECK(g.env == std::vector<std::string>{"CARD_NUMBER", "CARD_NUMBER_2"});
  REQUIRE(load_scenario_text(text, "recorded.yaml").ok());

  GeneraliseOptions o;
  o.cards = SecretMode::kMask;
  const std::string masked = scenario_yaml(generalise(v, o));
  CHECK(masked.find("card 4111XXXXXXXX1111") != std::string::npos);
  CHECK(masked.find("paid by 4111 XXXX XXXX 1111") != std::string::npos);
  o.cards = SecretMode::kKeep;
  CHECK(scenario_yaml(generalise(v, o)).find("card 4111111111111111") != std::string::npos);
}

TEST_CASE("the writer refuses a card number left in a step, seen as a secret or not", "[record]") {
  Generalised g;
  g.scenario = OJson::parse(
      R"j({"name":"x","steps":[{"request":{"method":"POST","path":"/Note","json":{"Note":"card 4111111111111111"}}}]})j");
  CHECK_THROWS_WITH(scenario_yaml(g), Catch::Contains("a card number would be written"));
  g.card_numbers_kept = true;  // --card-numbers keep
  CHECK_NOTHROW(scenario_yaml(g));
}

TEST_CASE("every ${env:...} written is listed for the replay, and only those", "[record]") {
  RecordedExchange token =
      ex("POST", "/services/oauth2/token",
         "grant_type=client_credentials&client_id=local-client&client_secret=s3cr3t-value", 200,
         R"j({"access_token":"tok-ISSUED-777777","token_type":"Bearer"})j", false);
  token.request_headers = {{"Content-Type", "application/x-www-form-urlencoded"}};
  std::vector<RecordedExchange> v = {
      token,
      // The org echoes its token under another key, and the client sends it back.
      ex("GET", std::string(kApi) + "/Session", "", 200,
         R"j({"SessionToken":"tok-ISSUED-777777","Status":"Active"})j"),
      ex("POST", std::string(kApi) + "/Session/Check", R"j({"Token":"tok-ISSUED-777777"})j", 200,
         R"j({"Status":"Valid"})j")};
  Generalised g = generalise(v, {});
  const std::string text = scenario_yaml(g);
  INFO(text);
  CHECK(text.find("tok-ISSUED-777777") == std::string::npos);
  CHECK(g.env == std::vector<std::string>{"ORG_CLIENT_SECRET", "ORG_ACCESS_TOKEN"});
  const std::string description = g.scenario["description"];
  for (size_t at = text.find("${env:"); at != std::string::npos; at = text.find("${env:", at + 1)) {
    const std::string name = text.substr(at + 6, text.find('}', at) - at - 6);
    INFO(name);
    CHECK(std::find(g.env.begin(), g.env.end(), name) != g.env.end());
    CHECK(description.find(name) != std::string::npos);
  }
  LoadResult r = load_scenario_text(text, "recorded.yaml");
  REQUIRE(r.ok());
  const auto& echoed = std::get<RequestStep>(r.scenario->steps[1].body).expect;
  CHECK((*echoed.json)["SessionToken"] == nlohmann::json{{"$type", "string"}});

  TempDir dir("runner_generaliser");
  std::ostringstream out, err;
  REQUIRE(write_scenario(g, (dir.path / "s.yaml").string(), out, err) == 0);
  CHECK(out.str().find("environment variables: ORG_CLIENT_SECRET ORG_ACCESS_TOKEN") !=
        std::string::npos);
}

TEST_CASE("the fake's admin health is expected by type, so a replay on another org passes",
          "[record]") {
  // Recorded: 17 records and no contract checking; the replaying org has
  // other counts and may check contracts (a number where null was).
  std::vector<RecordedExchange> v = {ex(
      "GET", "/__admin/health", "", 200,
      R"j({"status":"ok","org":"Local Fake Org","records":17,"contract_violations":null,"now":"2026-11-22T06:00:00.000Z"})j",
      false)};
  GeneraliseOptions o;
  o.fixture = "default.yaml";
  const std::string text = scenario_yaml(generalise(v, o));
  INFO(text);
  LoadResult r = load_scenario_text(text, "recorded.yaml");
  REQUIRE(r.ok());
  const auto& expect = std::get<RequestStep>(r.scenario->steps[0].body).expect;
  REQUIRE(expect.json);
  CHECK((*expect.json)["records"] == nlohmann::json{{"$type", "number"}});
  CHECK((*expect.json)["contract_violations"] == nlohmann::json{{"$exists", true}});
  CHECK((*expect.json)["org"] == nlohmann::json{{"$type", "string"}});
  CHECK(text.find("records: 17") == std::string::npos);
}
