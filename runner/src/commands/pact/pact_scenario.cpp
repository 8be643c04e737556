#include "commands/pact/pact_scenario.h"

#include <cctype>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "commands/pact/pact_rules.h"

namespace runner::pact {

namespace {

using OJson = nlohmann::ordered_json;
namespace fx = ::fake_org;

std::string slug(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!out.empty() && out.back() != '_')
      out += '_';
    if (out.size() >= 60) break;
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? "interaction" : out;
}

std::string percent_encode(const std::string& s) {
  std::ostringstream out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
      out << c;
    else
      out << '%' << std::uppercase << std::hex << std::setw(2) << std::setfill('0') << int(c);
  }
  return out.str();
}

// A ProviderState generator's expression ("${id}"), a Uuid generator as
// ${uuid}; null for generators whose example value serves as well.
nlohmann::json generated(const nlohmann::json& g) {
  const std::string type = g.value("type", "");
  if (type == "ProviderState" && g.contains("expression") && g["expression"].is_string())
    return g["expression"];
  if (type == "Uuid") return "${uuid}";
  return nullptr;
}

// Sets the body value at a simple generator path ("$.a.b", "$.a[0]").
void set_at(nlohmann::json& body, const std::string& path, const nlohmann::json& value) {
  std::string ptr;
  for (size_t i = 1; i < path.size();) {
    if (path[i] == '.') {
      size_t end = path.find_first_of(".[", i + 1);
      if (end == std::string::npos) end = path.size();
      ptr += "/" + path.substr(i + 1, end - i - 1);
      i = end;
    } else if (path[i] == '[') {
      const size_t close = path.find(']', i);
      if (close == std::string::npos) return;
      std::string inner = path.substr(i + 1, close - i - 1);
      if (inner.size() >= 2 && (inner[0] == '\'' || inner[0] == '"'))
        inner = inner.substr(1, inner.size() - 2);
      ptr += "/" + inner;
      i = close + 1;
    } else {
      return;
    }
  }
  const nlohmann::json::json_pointer p(ptr);
  if (body.contains(p)) body[p] = value;
}

OJson request_of(const PactRequest& r) {
  OJson req;
  req["method"] = r.method;
  const nlohmann::json& gen = r.generators;
  nlohmann::json path = escape_literal(r.path);
  if (gen.contains("path") && !generated(gen["path"]).is_null()) path = generated(gen["path"]);
  std::string full = path.get<std::string>();
  char sep = '?';
  for (const auto& [name, values] : r.query)
    for (const auto& v : values) {
      full += sep + percent_encode(name) + "=" + percent_encode(v);
      sep = '&';
    }
  req["path"] = full;
  OJson headers = OJson::object();
  for (auto it = r.headers.begin(); it != r.headers.end(); ++it) {
    std::string lower = it.key();
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // The runner authenticates (a consumer's example token means nothing to
    // the provider) and writes a JSON body's content type itself.
    if (lower == "authorization" || (lower == "content-type" && r.json_body)) continue;
    nlohmann::json v = escape_literal(it.value());
    if (gen.contains("header") && gen["header"].contains(it.key()))
      if (auto g = generated(gen["header"][it.key()]); !g.is_null()) v = g;
    headers[it.key()] = v;
  }
  if (!headers.empty()) req["headers"] = headers;
  if (r.has_body) {
    nlohmann::json body = escape_literal(r.body);
    if (r.json_body && gen.contains("body") && gen["body"].is_object())
      for (auto it = gen["body"].begin(); it != gen["body"].end(); ++it)
        if (auto g = generated(it.value()); !g.is_null()) set_at(body, it.key(), g);
    req[r.json_body ? "json" : "body"] = body;
  }
  return req;
}

OJson expect_of(const PactResponse& r) {
  OJson expect;
  expect["status"] = status_expectation(r.status, r.status_rule);
  OJson headers = OJson::object();
  for (auto it = r.headers.begin(); it != r.headers.end(); ++it)
    headers[it.key()] = header_expectation(it.key(), it.value().get<std::string>(), r.header_rules);
  if (!headers.empty()) expect["headers"] = headers;
  if (r.has_body) expect[r.json_body ? "json" : "body"] = body_expectation(r.body, r.body_rules);
  return expect;
}

struct Setup {
  std::string fixture;
  OJson vars = OJson::object();
  std::vector<OJson> steps;
};

std::string fixture_path(const std::string& fixture, const std::string& states_file) {
  if (fixture.empty()) return fixture;
  const std::filesystem::path beside = std::filesystem::path(states_file).parent_path() / fixture;
  std::error_code ec;
  if (std::filesystem::is_regular_file(beside, ec))
    return std::filesystem::absolute(beside, ec).lexically_normal().string();
  return fixture;
}

void add_state(const fx::ProviderState& s, const ProviderStateRef& ref, const std::string& file,
               const PactImportOptions& o, Setup& setup) {
  nlohmann::json params = s.params;
  for (auto it = ref.params.begin(); it != ref.params.end(); ++it) params[it.key()] = it.value();
  for (auto it = params.begin(); it != params.end(); ++it)
    setup.vars[it.key()] = escape_literal(it.value());
  const std::string fixture = fixture_path(s.fixture, file);
  if (!fixture.empty() && !setup.fixture.empty() && fixture != setup.fixture)
    throw PactError("provider state '" + s.name + "' needs fixture " + fixture +
                    ", another state of the interaction " + setup.fixture);
  if (!fixture.empty()) setup.fixture = fixture;
  const std::string label = "provider state '" + s.name + "': ";
  if (!s.clock.is_null())
    setup.steps.push_back(
        {{"name", label + "clock"}, {"clock", fx::substitute_params(s.clock, params)}});
  for (const auto& rec : s.records) {
    OJson step;
    step["name"] = label + "create " + rec.object;
    step["request"] = {{"method", "POST"},
                       {"path", "/services/data/v" + o.api_version + "/sobjects/" + rec.object},
                       {"json", fx::substitute_params(rec.fields, params)}};
    step["expect"] = {{"status", 201}};
    if (!rec.as.empty()) step["capture"] = {{rec.as, "$.id"}};
    setup.steps.push_back(step);
  }
  for (const auto& st : s.steps) setup.steps.push_back(st);
}

Setup setup_of(const Interaction& i, const fx::ProviderStates* states, const PactImportOptions& o,
               std::vector<std::string>& missing) {
  Setup setup;
  for (const auto& ref : i.states) {
    const fx::ProviderState* s = states ? states->find(ref.name) : nullptr;
    if (!s) {
      missing.push_back("'" + ref.name + "' (interaction '" + i.description + "')");
      continue;
    }
    add_state(*s, ref, states->file, o, setup);
  }
  return setup;
}

OJson scenario_of(const Pact& pact, const Interaction& i, size_t n, Setup setup,
                  const PactImportOptions& o) {
  OJson sc;
  sc["name"] = (pact.consumer.empty() ? "consumer" : pact.consumer) + " -> " +
               (pact.provider.empty() ? "provider" : pact.provider) + ": " + i.description;
  std::string states;
  for (const auto& s : i.states) states += (states.empty() ? "" : ", ") + ("'" + s.name + "'");
  sc["description"] = "Imported by scenario-runner import-pact from " + o.source +
                      " (Pact specification v" + std::to_string(pact.version) + ", interaction " +
                      std::to_string(n + 1) + ")" +
                      (states.empty() ? "." : "; provider states " + states + ".");
  sc["tags"] = {"pact"};
  if (!setup.fixture.empty()) sc["fixture"] = setup.fixture;
  if (!setup.vars.empty()) sc["vars"] = setup.vars;
  OJson steps = OJson::array();
  for (auto& s : setup.steps) steps.push_back(std::move(s));
  OJson main;
  main["name"] = i.description;
  main["request"] = request_of(i.request);
  main["expect"] = expect_of(i.response);
  steps.push_back(main);
  sc["steps"] = steps;
  return sc;
}

}  // namespace

std::vector<PactScenario> pact_scenarios(const Pact& pact, const fx::ProviderStates* states,
                                         const PactImportOptions& o) {
  std::vector<PactScenario> out;
  std::vector<std::string> missing;
  for (size_t n = 0; n < pact.interactions.size(); ++n) {
    const Interaction& i = pact.interactions[n];
    Setup setup = setup_of(i, states, o, missing);
    std::ostringstream name;
    name << std::setw(2) << std::setfill('0') << n + 1 << "_" << slug(i.description) << ".yaml";
    out.push_back({name.str(), scenario_of(pact, i, n, std::move(setup), o)});
  }
  if (!missing.empty()) {
    std::string msg = states ? "the states file " + states->file + " has no provider state "
                             : "the pact names provider states; give their setup with --states: ";
    for (size_t k = 0; k < missing.size(); ++k) msg += (k ? ", " : "") + missing[k];
    if (states) msg += " (it has " + states->names() + ")";
    throw PactError(msg);
  }
  return out;
}

}  // namespace runner::pact
