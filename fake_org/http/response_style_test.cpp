// Fixture `org.response_style: package` (decisions 68): the answers the spec
// leaves "not shown" in the layouts of the real package's public samples,
// and `spec` (the default) unchanged, from the same org configuration. The
// org runs with --check-contracts (TestOrg): the package's layouts must pass
// the lenient profile, the spec's the strict one.
#include <catch2/catch.hpp>

#include "checker/checker.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"
#include "testing/webhook_fakes.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

OrgConfig package_org(ResponseStyle style = ResponseStyle::kPackage) {
  OrgConfig c = fixture("package.yaml");
  c.org.response_style = style;
  return c;
}

const json* method_named(const json& body, const std::string& name) {
  for (const auto& m : body.at("PaymentMethods"))
    if (m.at("Name") == name) return &m;
  return nullptr;
}

// The notifications of one payment intent's installment, in arrival order.
std::vector<json> installment_hooks(const Receiver& r, const std::string& pi) {
  std::vector<json> out;
  for (const auto& req : r.requests()) {
    auto b = json::parse(req.body, nullptr, false);
    if (b.is_object() && b.value("type", "").rfind("installment", 0) == 0 &&
        b["data"].value("PaymentIntentId", "") == pi)
      out.push_back(b);
  }
  return out;
}

}  // namespace

TEST_CASE("package style: GET /PackageActions answers the package's envelope",
          "[info][response_style]") {
  TestOrg t(package_org());
  auto r = t.get("/PackageActions");
  REQUIRE(r.status == 200);
  INFO(r.body);
  CHECK(r.json["ResponseCode"] == "001");
  CHECK(r.json["IsSuccess"] == true);
  CHECK_FALSE(r.json.contains("Packages"));
  const json& pkg = r.json["PackageActions"].at(0);
  CHECK(pkg["PackageName"] == "cpm_GiftAid");
  const json& action = pkg["actions"].at(0);
  CHECK(action["name"] == "Declaration");
  const json& first = action["Parameters"].at(0);
  CHECK(first == json{{"name", "DeclarationDate"},
                      {"dataType", "Date"},
                      {"required", true},
                      {"description", "Date the donor made the declaration"}});
  // `required` is left out when false.
  const json& title = action["Parameters"].at(3);
  CHECK(title["name"] == "Title");
  CHECK_FALSE(title.contains("required"));
  auto strict = contracts::Checker::embedded(contracts::Profile::kStrict);
  CHECK_FALSE(
      strict->check_response("GET", "/services/apexrest/cpm/v2/PackageActions", 200, r.json).ok());
}

TEST_CASE("package style: GET /PaymentMethods with images, the package's rule and Enum issuers",
          "[info][response_style]") {
  TestOrg t(package_org());
  auto r = t.get("/PaymentMethods");
  REQUIRE(r.status == 200);
  INFO(r.body);
  const json* card = method_named(r.json, "CreditCard");
  REQUIRE(card);
  CHECK((*card)["image"] ==
        json{{"svg", "https://static.local-fake-org.example/methods/creditcard.svg"}});
  const json& stripe = (*card)["Processors"].at(0);
  CHECK(stripe["image"]["svg"] == "https://static.local-fake-org.example/processors/stripe.svg");
  CHECK(stripe["InitialPaymentOnRecurring"] == "required");
  CHECK_FALSE(stripe.contains("InitialPaymentonRecurring"));
  CHECK(
      (*method_named(r.json, "SEPA Direct Debit"))["Processors"][0]["InitialPaymentOnRecurring"] ==
      "optional");
  // A processor without recurring support: unsupported (spec style: No).
  CHECK((*method_named(r.json, "PayPal"))["Processors"][0]["InitialPaymentOnRecurring"] ==
        "unsupported");
  const json* ideal = method_named(r.json, "iDEAL");
  REQUIRE(ideal);
  const json& issuer = (*ideal)["Processors"][0]["Parameters"].at(0);
  CHECK(issuer["DataType"] == "Enum");
  REQUIRE(issuer["Enum"].size() == 3);
  CHECK(issuer["Enum"][0] ==
        json{{"value", "ideal_ABNANL2A"},
             {"label", "ABN AMRO"},
             {"image", {{"svg", "https://static.local-fake-org.example/issuers/abnamro.svg"}}}});
}

TEST_CASE("spec style of the same org: no images, Enum as a Picklist of its values",
          "[info][response_style]") {
  TestOrg t(package_org(ResponseStyle::kSpec));
  auto r = t.get("/PaymentMethods");
  REQUIRE(r.status == 200);
  INFO(r.body);
  const json* ideal = method_named(r.json, "iDEAL");
  REQUIRE(ideal);
  CHECK_FALSE(ideal->contains("image"));
  const json& mollie = (*ideal)["Processors"][0];
  CHECK_FALSE(mollie.contains("image"));
  CHECK(mollie["InitialPaymentonRecurring"] == "No");
  CHECK(mollie["Parameters"][0]["DataType"] == "Picklist");
  CHECK(mollie["Parameters"][0]["Values"] ==
        json{"ideal_ABNANL2A", "ideal_INGBNL2A", "ideal_RABONL2U"});
  CHECK(t.get("/SourceConnector").json["SourceConnectors"][0]["IsDefault"] == true);
  CHECK(t.get("/PackageActions").json.contains("Packages"));
}

TEST_CASE("package style: an Enum parameter takes one of its values", "[info][response_style]") {
  TestOrg t(package_org());
  json ideal = {{"Name", "iDEAL"}, {"Parameters", {{"issuer", "ideal_INGBNL2A"}}}};
  auto ok = t.post("/PaymentIntent", IntentBody::one_time(ideal).body());
  INFO(ok.body);
  CHECK(ok.status == 200);
  ideal["Parameters"]["issuer"] = "ideal_NOPE";
  auto bad = t.post("/PaymentIntent", IntentBody::one_time(ideal).body());
  REQUIRE(bad.status == 422);
  CHECK(code_of(bad) == "200");
  CHECK(message_of(bad).find("PaymentMethod.Parameters.issuer must be one of "
                             "ideal_ABNANL2A, ideal_INGBNL2A, ideal_RABONL2U") !=
        std::string::npos);
}

TEST_CASE("package style: GET /SourceConnector writes IsDefault as text",
          "[info][response_style]") {
  TestOrg t(package_org());
  auto r = t.get("/SourceConnector");
  REQUIRE(r.status == 200);
  CHECK(r.json["SourceConnectors"][0]["Name"] == "cpm_Native");
  CHECK(r.json["SourceConnectors"][0]["IsDefault"] == "true");
}

TEST_CASE("package style: POST /PaymentIntent answers Id and RedirectURL only",
          "[payment_intent][response_style]") {
  TestOrg t(package_org());
  auto card = t.post("/PaymentIntent", IntentBody::one_time().body());
  REQUIRE(card.status == 200);
  INFO(card.body);
  CHECK(card.json.size() == 2);
  CHECK(card.json["Id"].get<std::string>().rfind("pi_", 0) == 0);
  CHECK(card.json["RedirectURL"].is_string());
  auto sepa =
      t.post("/PaymentIntent",
             IntentBody::one_time(sepa_debit("DE89370400440532013000", "Max Weber")).body());
  REQUIRE(sepa.status == 200);
  CHECK(sepa.json == json{{"Id", sepa.json["Id"]}});
  // The spec's style answers the resolved method and settings.
  TestOrg s(package_org(ResponseStyle::kSpec));
  auto spec = s.post("/PaymentIntent", IntentBody::one_time().body());
  REQUIRE(spec.status == 200);
  CHECK(spec.json.contains("PaymentMethod"));
  CHECK(spec.json.contains("Settings"));
}

TEST_CASE("package style: GET /Installment with PayLinkPage, payment Target and 10.0 amounts",
          "[reads][response_style]") {
  TestOrg t(package_org());
  auto c = t.create_intent(IntentBody::one_time().amount(10));
  REQUIRE(t.complete_session(c.session, {{"outcome", "success"}}).status == 200);
  auto r = t.get("/Installment/" + c.installment);
  REQUIRE(r.status == 200);
  INFO(r.body);
  CHECK(r.json["PayLinkPage"] ==
        "https://local-fake-org.example/paylink?id=" + r.json["GUID"].get<std::string>());
  CHECK(r.json["PayUrl"].is_string());
  CHECK(r.body.find("\"Amount\":10.0") != std::string::npos);
  CHECK(r.body.find("\"AmountOpen\":0.0") != std::string::npos);
  const json& payment = r.json["Payments"].at(0);
  CHECK(payment["Target"] == "Online");
  CHECK(payment["Amount"].is_number_float());
  // The spec's style: no PayLinkPage, no payment Target.
  TestOrg s(package_org(ResponseStyle::kSpec));
  auto sc = s.create_intent(IntentBody::one_time().amount(10));
  REQUIRE(s.complete_session(sc.session, {{"outcome", "success"}}).status == 200);
  auto sr = s.get("/Installment/" + sc.installment);
  CHECK_FALSE(sr.json.contains("PayLinkPage"));
  CHECK_FALSE(sr.json["Payments"].at(0).contains("Target"));
  CHECK(sr.body.find("\"Amount\":10,") != std::string::npos);
}

TEST_CASE("package style: installment webhooks without Url and Type, payments brief",
          "[webhooks][response_style]") {
  Receiver receiver;
  int port = receiver.start();
  REQUIRE(port > 0);
  TestOrg t(package_org());
  auto c = t.create_intent(IntentBody::one_time().amount(10).webhook(
      "http://127.0.0.1:" + std::to_string(port) + "/hooks"));
  REQUIRE(t.complete_session(c.session, {{"outcome", "success"}}).status == 200);
  REQUIRE(eventually([&] { return installment_hooks(receiver, c.id).size() >= 2; }, 20s));
  auto hooks = installment_hooks(receiver, c.id);
  const json& change = hooks.at(1);
  INFO(change.dump(2));
  CHECK(change["type"] == "installment.status_change");
  const json& data = change["data"];
  CHECK_FALSE(data.contains("Url"));
  CHECK_FALSE(data.contains("Type"));
  CHECK(data["Id"] == c.installment);
  CHECK(data["Status"] == "Collected");
  const json& payment = data["Payments"].at(0);
  CHECK(payment.size() == 3);
  CHECK(payment["Amount"] == 10.0);
  CHECK(payment["Id"].is_string());
  CHECK(payment["CollectionDate"].is_string());
}
