// What the fake's contract self-check counts: a body that breaks its schema,
// a body that is not JSON on a route of the contract, and a status the
// contract has no schema for; pages and redirects outside it are not counted.
#include "events/contract_monitor.h"

#include <catch2/catch.hpp>

#include "events/webhook_event_sink.h"
#include "testing/webhook_fakes.h"

using fake_org::ContractMonitor;

namespace {
const std::string kApi = "/services/apexrest/cpm/v2";
const std::string kPlatform404 =
    R"([{"message":"Could not find a match for URL","errorCode":"NOT_FOUND"}])";
}  // namespace

TEST_CASE("the monitor counts a body that is not JSON on a route of the contract",
          "[contracts][monitor]") {
  ContractMonitor m(false);
  m.check_response("GET", kApi + "/PaymentMethods", 200, "<html>PaymentMethods</html>");
  CHECK(m.violations() == 1);
  m.check_response("POST", "/services/oauth2/token", 200, "access_token=x");
  CHECK(m.violations() == 2);
  m.check_response("GET", kApi + "/NoSuchThing", 404, "not found");  // under the API base
  CHECK(m.violations() == 3);
  auto recent = m.recent();
  REQUIRE(recent.size() == 3);
  CHECK(recent[0]["what"] == "GET " + kApi + "/PaymentMethods -> 200");
  CHECK(recent[0]["report"].get<std::string>().find("not JSON") != std::string::npos);
}

TEST_CASE("the monitor leaves pages and redirects outside the contract alone",
          "[contracts][monitor]") {
  ContractMonitor m(false);
  m.check_response("GET", "/services/oauth2/authorize", 200, "<!doctype html><p>Allow?</p>");
  m.check_response("POST", "/services/oauth2/authorize", 302, "");
  m.check_response("GET", "/psp/checkout/abc", 200, "<!doctype html>");
  m.check_response("GET", "/favicon.ico", 404, kPlatform404);
  CHECK(m.violations() == 0);
}

TEST_CASE("the monitor counts a status the contract has no schema for", "[contracts][monitor]") {
  ContractMonitor m(false);
  const std::string errors = R"({"Errors":[{"error_code":"200","error_message":"x"}]})";
  m.check_response("POST", kApi + "/PaymentIntent", 422, errors);  // in the contract
  CHECK(m.violations() == 0);
  m.check_response("POST", kApi + "/PaymentIntent", 418, errors);
  CHECK(m.violations() == 1);
  CHECK(m.recent()[0]["report"].get<std::string>().find("HTTP 418 is not in the strict contract") !=
        std::string::npos);
  m.check_response("POST", "/services/oauth2/token", 503,
                   R"({"error":"server_error","error_description":"x"})");
  CHECK(m.violations() == 2);
  // A wrong method on a known OAuth path answers the platform's 405: in the contract.
  m.check_response("GET", "/services/oauth2/token", 405,
                   R"([{"message":"HTTP Method 'GET' not allowed. Allowed are POST",)"
                   R"("errorCode":"METHOD_NOT_ALLOWED"}])");
  CHECK(m.violations() == 2);
}

TEST_CASE("an org in the package's layouts is held to the lenient profile",
          "[contracts][monitor][response_style]") {
  const std::string envelope =
      R"({"ResponseCode":"001","IsSuccess":true,"PackageActions":[{"PackageName":"cpm_GiftAid",)"
      R"("actions":[{"name":"Declaration","Parameters":[{"name":"ValidTo","dataType":"Date"}]}]}]})";
  const nlohmann::json hook = nlohmann::json::parse(
      R"({"type":"installment.status_change","data":{"Id":"a0B5J000001AbCdUAK",)"
      R"("Status":"Collected","Payments":[{"Id":"a0C5J000002XyZaUAK","Amount":10.0}]}})");
  ContractMonitor strict(false);
  strict.check_response("GET", kApi + "/PackageActions", 200, envelope);
  strict.check_webhook(hook);
  CHECK(strict.violations() == 2);
  ContractMonitor lenient(false, "", true);
  lenient.check_response("GET", kApi + "/PackageActions", 200, envelope);
  lenient.check_webhook(hook);
  CHECK(lenient.violations() == 0);
  // The lenient profile still refuses what no org sends.
  lenient.check_response("GET", kApi + "/PackageActions", 200, R"({"PackageActions":"none"})");
  CHECK(lenient.violations() == 1);
}

TEST_CASE("the webhook sink checks bodies on flush, after the store's lock, not on publish",
          "[contracts][monitor][webhooks]") {
  using namespace fake_org;
  auto sender = testing::fake_sender(testing::always(204));
  // No permitted site: the events are logged blocked and never sent.
  auto engine = std::make_shared<WebhookEngine>(
      testing::fast_settings(), std::vector<RemoteSiteDef>{},
      std::make_shared<ManualClock>(*parse_iso8601("2027-01-31T09:00:00Z")),
      std::move(sender.owned), std::make_shared<SeededRandom>(3), 1);
  WebhookEventSink sink(WebhookSettings{}, engine);
  auto monitor = std::make_shared<ContractMonitor>(false);
  sink.set_monitor(monitor);
  // A body the contract rejects: data lacks every required field.
  DomainEvent bad{"paymentIntent.processed", "pi_1", "https://hooks.example/cpm", {{"x", 1}}};
  sink.publish({bad, bad});
  // publish runs under the store's write lock: it only queued (the order is fixed).
  CHECK(engine->log("pi_1").size() == 2);
  CHECK(monitor->violations() == 0);
  sink.flush();
  CHECK(monitor->violations() == 2);
  sink.flush();  // each body is checked once
  CHECK(monitor->violations() == 2);
}
