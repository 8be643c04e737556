// POST /__admin/provider-states: a Pact verifier's state calls applied from
// the --provider-states file (records made, clock moved, values answered),
// teardown back to the fixture, and every refusal naming what is wrong.
#include <catch2/catch.hpp>

#include "fixture/provider_states.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

EmbeddedOptions with_states(const std::string& yaml) {
  auto load = fake_org::parse_provider_states(yaml, "states.yaml");
  REQUIRE(load.states);
  EmbeddedOptions o;
  o.provider_states = std::make_shared<const fake_org::ProviderStates>(std::move(*load.states));
  return o;
}

const char* kStates = R"(states:
  a payer exists:
    fixture: default.yaml
    clock: "2027-01-31T09:00:00Z"
    params: {lastName: Weber}
    records:
      - {object: Contact, fields: {LastName: "${lastName}", Email: "${lastName}@example.org"}, as: contact}
  another org:
    fixture: nonprofit.yaml
  with steps:
    steps: [{request: GET /PaymentMethods}]
)";

}  // namespace

TEST_CASE("provider-states: setup makes the records, moves the clock, answers the values",
          "[http][admin][pact]") {
  TestOrg t(testing::fixture("default.yaml"), with_states(kStates));
  const size_t contacts = t.admin_records("Contact").size();
  auto r = t.post(
      "/__admin/provider-states",
      {{"state", "a payer exists"}, {"params", {{"lastName", "Hopper"}}}, {"action", "setup"}},
      false);
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK(r.json["lastName"] == "Hopper");
  const std::string id = r.json["contact"];
  CHECK(t.admin_record("Contact", id)["Email"] == "Hopper@example.org");
  // Set, then running on from there.
  CHECK_THAT(t.get("/__admin/clock", false).json["now"].get<std::string>(),
             Catch::StartsWith("2027-01-31T09:0"));
  // The v2 verifier's form, with the file's default params.
  auto v2 = t.post("/__admin/provider-states",
                   {{"consumer", "form"}, {"states", {"a payer exists"}}}, false);
  REQUIRE(v2.status == 200);
  CHECK(v2.json["lastName"] == "Weber");
  CHECK(t.admin_records("Contact").size() == contacts + 2);
  auto down = t.post("/__admin/provider-states",
                     {{"state", "a payer exists"}, {"action", "teardown"}}, false);
  CHECK(down.status == 200);
  CHECK(t.admin_records("Contact").size() == contacts);  // back to the fixture
}

TEST_CASE("provider-states: unknown states, other fixtures, steps and bad bodies are refused",
          "[http][admin][pact]") {
  TestOrg t(testing::fixture("default.yaml"), with_states(kStates));
  auto unknown = t.post("/__admin/provider-states", {{"state", "nope"}}, false);
  CHECK(unknown.status == 400);
  CHECK_THAT(message_of(unknown),
             Catch::Contains("no provider state 'nope'") && Catch::Contains("'a payer exists'"));
  auto other = t.post("/__admin/provider-states", {{"state", "another org"}}, false);
  CHECK(other.status == 409);
  CHECK_THAT(message_of(other), Catch::Contains("--fixture nonprofit.yaml"));
  auto steps = t.post("/__admin/provider-states", {{"state", "with steps"}}, false);
  CHECK(steps.status == 400);
  CHECK_THAT(message_of(steps), Catch::Contains("import-pact"));
  auto action =
      t.post("/__admin/provider-states", {{"state", "a payer exists"}, {"action", "go"}}, false);
  CHECK(action.status == 400);
  CHECK(t.post_raw("/__admin/provider-states", "{", false).status == 400);
}

TEST_CASE("provider-states: without --provider-states the endpoint says so",
          "[http][admin][pact]") {
  TestOrg t(testing::fixture("default.yaml"));
  auto r = t.post("/__admin/provider-states", {{"state", "a payer exists"}}, false);
  CHECK(r.status == 404);
  CHECK_THAT(message_of(r), Catch::Contains("--provider-states"));
}
