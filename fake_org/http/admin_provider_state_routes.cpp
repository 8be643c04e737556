// POST /__admin/provider-states: fake-org as the provider of a Pact
// verification. The official verifiers (pact-js's Verifier, pact_verifier_cli,
// pact-provider-verifier) call it before each interaction with the state the
// consumer's pact names, and after it with action "teardown"; it applies the
// states file fake-org was started with (--provider-states FILE,
// fixture/provider_states.h), as import-pact does in a scenario.
#include <filesystem>

#include "admin/admin.h"
#include "fault_injector.h"
#include "fixture/provider_states.h"
#include "request_journal.h"
#include "responses.h"
#include "routes.h"
#include "util/calendar.h"
#include "util/json_text.h"

namespace fake_org::http {

namespace {

namespace fx = ::fake_org;

ApiError ps_error(std::string field, std::string message, ErrorKind kind = ErrorKind::kSpec) {
  return make_error(error_code::kMissingCoreParameter, std::move(field), std::move(message), kind);
}

// "embedded:default.yaml", "/x/default.yaml" -> "default.yaml"
std::string ps_fixture_name(std::string name) {
  if (name.rfind("embedded:", 0) == 0) name.erase(0, 9);
  return std::filesystem::path(name).filename().string();
}

// The clock move a state asks for; the reason it could not, or "".
std::string ps_move_clock(admin::Admin& admin, const nlohmann::json& clock) {
  if (clock.contains("set")) {
    auto to =
        clock["set"].is_string() ? parse_iso8601(clock["set"].get<std::string>()) : std::nullopt;
    if (!to) return "clock 'set' " + text::json_text(clock["set"]) + " is not an ISO 8601 instant";
    return admin.set_clock(*to);
  }
  auto by = clock["advance"].is_string() ? parse_clock_advance(clock["advance"].get<std::string>())
                                         : std::nullopt;
  if (!by) return "clock 'advance' " + text::json_text(clock["advance"]) + " is not a duration";
  return admin.advance_clock(*by);
}

// One state set up; its values (params, and each record kept `as` a name)
// added to `values`, which the verifier may inject into the request.
std::optional<ApiError> ps_set_up(admin::Admin& admin, const fx::ProviderStates& states,
                                  const std::string& name, const nlohmann::json& params,
                                  nlohmann::json& values) {
  const fx::ProviderState* s = states.find(name);
  if (!s)
    return ps_error("state", "no provider state '" + name + "' in " + states.file + " (it has " +
                                 states.names() + ")");
  const std::string here = ps_fixture_name(admin.summary().fixture);
  if (!s->fixture.empty() && ps_fixture_name(s->fixture) != here)
    return ps_error("state",
                    "provider state '" + name + "' needs the fixture " + s->fixture +
                        "; this org serves " + here + ": start fake-org with --fixture " +
                        s->fixture +
                        ", or create an org of it (POST /__admin/orgs) and verify under its prefix",
                    ErrorKind::kConflict);
  if (!s->steps.empty())
    return ps_error("state", "provider state '" + name +
                                 "' has steps, which only scenario-runner import-pact runs; "
                                 "give the endpoint's states fixture, clock and records only");
  nlohmann::json p = s->params;
  for (auto it = params.begin(); it != params.end(); ++it) p[it.key()] = it.value();
  for (auto it = p.begin(); it != p.end(); ++it) values[it.key()] = it.value();
  if (!s->clock.is_null()) {
    const std::string why = ps_move_clock(admin, fx::substitute_params(s->clock, values));
    if (!why.empty()) return ps_error("state", "provider state '" + name + "': " + why);
  }
  for (const auto& r : s->records) {
    auto created = admin.create_record(r.object, fx::substitute_params(r.fields, values));
    if (!created.ok())
      return ps_error("state", "provider state '" + name + "', record " + r.object + ": " +
                                   created.errors().front().message);
    if (!r.as.empty()) values[r.as] = std::string((*created)->id.view());
  }
  return std::nullopt;
}

struct PsCall {
  std::vector<std::string> names;
  nlohmann::json params = nlohmann::json::object();
  bool teardown = false;
};

// {"state", "params", "action"} (Pact v3 verifiers), or {"consumer", "states": [...]}
// (the v2 verifier's form); nullopt with `error` set when it is neither.
std::optional<PsCall> ps_read_call(const nlohmann::json& b, std::optional<ApiError>& error) {
  PsCall call;
  if (!b.is_object()) {
    error = ps_error("", "send {\"state\": NAME, \"params\": {...}, \"action\": \"setup\"}");
    return std::nullopt;
  }
  if (b.contains("states") && b["states"].is_array()) {
    for (const auto& s : b["states"])
      if (s.is_string()) call.names.push_back(s.get<std::string>());
  } else if (b.contains("state") && b["state"].is_string()) {
    call.names.push_back(b["state"].get<std::string>());
  }
  if (b.contains("params") && b["params"].is_object()) call.params = b["params"];
  const std::string action = b.value("action", nlohmann::json("setup")).is_string()
                                 ? b.value("action", std::string("setup"))
                                 : "";
  if (action != "setup" && action != "teardown") {
    error = ps_error("action", "'action' must be \"setup\" or \"teardown\"; got " +
                                   text::json_text(b["action"]));
    return std::nullopt;
  }
  call.teardown = action == "teardown";
  if (call.names.empty() && !call.teardown) {
    error = ps_error("state", "name the provider state: {\"state\": NAME} or {\"states\": [NAME]}");
    return std::nullopt;
  }
  return call;
}

void post_provider_states(admin::Admin& admin, const fx::ProviderStates* states,
                          RequestJournal& journal, FaultInjector& faults, Call& c) {
  if (!states)
    return send_errors(c.res, admin.config(),
                       {ps_error("",
                                 "fake-org was started without --provider-states FILE, so "
                                 "it knows no provider state",
                                 ErrorKind::kNotFound)});
  auto body = parse_json_body(c.req);
  if (!body.ok()) return send_errors(c.res, admin.config(), body.errors());
  std::optional<ApiError> bad;
  auto call = ps_read_call(*body, bad);
  if (!call) return send_errors(c.res, admin.config(), {*bad});
  if (call->teardown) {  // the next interaction starts from the fixture again
    admin.reset();
    journal.clear();
    faults.clear();
    return send_json(c.res, 200, nlohmann::json::object());
  }
  nlohmann::json values = nlohmann::json::object();
  for (const auto& name : call->names)
    if (auto e = ps_set_up(admin, *states, name, call->params, values))
      return send_errors(c.res, admin.config(), {*e});
  send_json(c.res, 200, values);
}

}  // namespace

FAKE_ORG_HANDLERS(admin_provider_states) {
  const std::shared_ptr<admin::Admin> admin = context.admin;
  const std::shared_ptr<const fx::ProviderStates> states = context.provider_states;
  RequestJournal& journal = context.journal;
  FaultInjector& faults = context.faults;
  handlers.on("postAdminProviderStates", [admin, states, &journal, &faults](Call& c) {
    post_provider_states(*admin, states.get(), journal, faults, c);
  });
}

}  // namespace fake_org::http
