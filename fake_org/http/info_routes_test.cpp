// The informational endpoints (spec 4.5, 4.6) reflect the loaded fixture
// completely: each whole body is compared with one built here, field by
// field, from the fixture's configuration (the layouts of docs/decisions.md
// rows 7-9), and the names against the YAML file itself. Also: the admin
// API's loopback rule.
#include <ifaddrs.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <set>

#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

json parameters(const std::vector<ParameterDef>& list) {
  json out = json::array();
  for (const auto& p : list) {
    json j = {{"Name", p.name},
              {"DataType", p.data_type},
              {"Required", p.required},
              {"Description", p.description}};
    if (!p.values.empty()) j["Values"] = p.values;
    out.push_back(j);
  }
  return out;
}

json expected_payment_methods(const OrgConfig& c) {
  json methods = json::array();
  for (const auto& m : c.payment_methods) {
    json processors = json::array();
    for (const auto& p : m.processors) {
      json targets = json::array();
      for (const auto& t : p.targets)
        targets.push_back({{"Name", t.name}, {"IsDefault", t.is_default}});
      processors.push_back(
          {{"Name", p.name},
           {"IsDefault", p.is_default},
           {"InitialPaymentonRecurring", to_string(p.initial_payment_on_recurring)},
           {"SupportsRecurring", p.supports_recurring},
           {"RequiresPayerAction", p.hosted_page},
           {"Targets", targets},
           {"Parameters", parameters(p.parameters)},
           {"RequiredPackageActions", p.required_package_actions}});
    }
    methods.push_back({{"Name", m.name}, {"Processors", processors}});
  }
  return {{"PaymentMethods", methods}};
}

json expected_source_connectors(const OrgConfig& c) {
  json list = json::array();
  for (const auto& s : c.source_connectors) {
    json j = {{"Name", s.name},
              {"PrettyName", s.pretty_name},
              {"IsDefault", s.is_default},
              {"RecurringObject", s.recurring_object},
              {"Frequencies", s.frequencies}};
    if (!s.schedule_object.empty()) j["ScheduleObject"] = s.schedule_object;
    if (!s.parameters.empty()) j["Parameters"] = parameters(s.parameters);
    list.push_back(j);
  }
  return {{"SourceConnectors", list}};
}

json expected_package_actions(const OrgConfig& c) {
  json packages = json::array();
  for (const auto& p : c.packages) {
    json actions = json::array();
    for (const auto& a : p.actions)
      actions.push_back({{"Name", a.name},
                         {"Description", a.description},
                         {"Parameters", parameters(a.parameters)}});
    packages.push_back({{"Name", p.name}, {"Description", p.description}, {"Actions", actions}});
  }
  return {{"Packages", packages}};
}

// The `name`s of a YAML list, in order.
std::vector<std::string> yaml_names(const YAML::Node& list) {
  std::vector<std::string> out;
  for (const auto& item : list) out.push_back(item["name"].as<std::string>());
  return out;
}

std::vector<std::string> json_names(const json& list) {
  std::vector<std::string> out;
  for (const auto& item : list) out.push_back(item.at("Name").get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("the informational endpoints reflect the whole fixture, for two fixtures",
          "[http][info]") {
  std::set<std::string> bodies;  // the two fixtures must give different answers
  for (const std::string name : {"default.yaml", "nonprofit.yaml"}) {
    INFO(name);
    TestOrg t(fixture(name));
    const OrgConfig& c = t.org().config();
    auto pm = t.get("/PaymentMethods");
    auto sc = t.get("/SourceConnector");
    auto pa = t.get("/PackageActions");
    REQUIRE(pm.status == 200);
    REQUIRE(sc.status == 200);
    REQUIRE(pa.status == 200);
    CHECK(pm.json == expected_payment_methods(c));
    CHECK(sc.json == expected_source_connectors(c));
    CHECK(pa.json == expected_package_actions(c));
    bodies.insert(pm.body + sc.body + pa.body);

    // Every method, processor, connector, package and action the YAML names,
    // in its order, and nothing else.
    YAML::Node yaml = YAML::LoadFile(std::string(PROJECT_SOURCE_DIR) + "/fixtures/" + name);
    const json& methods = pm.json["PaymentMethods"];
    CHECK(json_names(methods) == yaml_names(yaml["payment_methods"]));
    for (size_t i = 0; i < methods.size() && i < yaml["payment_methods"].size(); ++i)
      CHECK(json_names(methods[i]["Processors"]) ==
            yaml_names(yaml["payment_methods"][i]["processors"]));
    CHECK(json_names(sc.json["SourceConnectors"]) == yaml_names(yaml["source_connectors"]));
    std::vector<std::string> yaml_packages =
        yaml["packages"] ? yaml_names(yaml["packages"]) : std::vector<std::string>{};
    CHECK(json_names(pa.json["Packages"]) == yaml_packages);
    for (size_t i = 0; i < pa.json["Packages"].size() && i < yaml_packages.size(); ++i)
      CHECK(json_names(pa.json["Packages"][i]["Actions"]) ==
            yaml_names(yaml["packages"][i]["actions"]));
  }
  CHECK(bodies.size() == 2);
}

TEST_CASE("a method the fixture keeps but has not activated is neither listed nor accepted",
          "[http][info]") {
  // The default fixture's methods with PayPal switched off.
  YAML::Node yaml = YAML::LoadFile(std::string(PROJECT_SOURCE_DIR) + "/fixtures/default.yaml");
  YAML::Node methods = yaml["payment_methods"];
  for (auto m : methods)
    if (m["name"].as<std::string>() == "PayPal") m["active"] = false;
  YAML::Node top;
  top["extends"] = "default.yaml";
  top["payment_methods"] = methods;
  TestOrg t(fixture_text(YAML::Dump(top)));

  auto pm = t.get("/PaymentMethods");
  REQUIRE(pm.status == 200);
  CHECK(json_names(pm.json["PaymentMethods"]) ==
        std::vector<std::string>{"CreditCard", "SEPA Direct Debit", "Bacs Direct Debit"});

  auto contacts_before = t.get("/__admin/records/Contact", false).json["totalSize"];
  json body = IntentBody::one_time(payment_method("PayPal"))
                  .contact({{"LastName", "Off"}, {"Email", "off@example.org"}})
                  .amount(10)
                  .currency("EUR");
  auto r = t.post("/PaymentIntent", body);
  CHECK(r.status == 422);
  INFO(r.body);
  REQUIRE(r.json["Errors"].size() == 1);
  CHECK(code_of(r) == "200");
  CHECK(message_of(r) ==
        "PaymentMethod.Name 'PayPal' is configured in this org but not activated; available: "
        "CreditCard, SEPA Direct Debit, Bacs Direct Debit");
  CHECK(t.get("/__admin/records/Contact", false).json["totalSize"] == contacts_before);

  body["PaymentMethod"]["Name"] = "CreditCard";
  auto ok = t.post("/PaymentIntent", body);
  INFO(ok.body);
  CHECK(ok.status == 200);
}

TEST_CASE("the admin API answers loopback callers only", "[http][admin]") {
  CHECK(http::is_loopback("127.0.0.1"));
  CHECK(http::is_loopback("127.1.2.3"));
  CHECK(http::is_loopback("::1"));
  CHECK(http::is_loopback("::ffff:127.0.0.1"));
  CHECK_FALSE(http::is_loopback("10.0.0.7"));
  CHECK_FALSE(http::is_loopback("192.168.1.127"));
  CHECK_FALSE(http::is_loopback("::ffff:10.0.0.7"));
  CHECK_FALSE(http::is_loopback("fe80::1"));
  CHECK_FALSE(http::is_loopback(""));
}

TEST_CASE("a caller from another address gets 403 from the admin API unless it is opened",
          "[http][admin]") {
  // This machine's first non-loopback IPv4 address, to call from.
  std::string address;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) == 0) {
    for (ifaddrs* a = list; a && address.empty(); a = a->ifa_next) {
      if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET) continue;
      char text[INET_ADDRSTRLEN];
      auto* in = reinterpret_cast<sockaddr_in*>(a->ifa_addr);
      if (inet_ntop(AF_INET, &in->sin_addr, text, sizeof text) && !http::is_loopback(text))
        address = text;
    }
    freeifaddrs(list);
  }
  if (address.empty()) {
    WARN("no non-loopback IPv4 address on this machine: only is_loopback is tested");
    return;
  }
  for (bool open : {false, true}) {
    INFO("admin_open " << open);
    EmbeddedOptions o;
    o.host = "0.0.0.0";
    o.admin_open = open;
    auto org = EmbeddedOrg::start(fixture("default.yaml"), o);
    httplib::Client c(address, org->port());
    auto r = c.Get("/__admin/health");
    REQUIRE(r);
    if (open) {
      CHECK(r->status == 200);
      continue;
    }
    CHECK(r->status == 403);
    CHECK(r->body.find("--admin-open") != std::string::npos);
    // The API itself still answers such callers, and loopback the admin API.
    auto token =
        c.Post("/services/oauth2/token", httplib::Params{{"grant_type", "client_credentials"},
                                                         {"client_id", "local-client"},
                                                         {"client_secret", "local-secret"}});
    REQUIRE(token);
    CHECK(token->status == 200);
    httplib::Client local("127.0.0.1", org->port());
    auto ok = local.Get("/__admin/health");
    REQUIRE(ok);
    CHECK(ok->status == 200);
  }
}
