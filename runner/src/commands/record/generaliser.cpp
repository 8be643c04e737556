// Exchanges to a scenario, in two passes: first find which values the org
// generated and which of them are used again (those become captures), then
// write each exchange as a request step.
#include "commands/record/generaliser.h"

#include "util/ascii.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>

#include "commands/record/generaliser_state.h"
#include "commands/record/value_kinds.h"
#include "commands/record/yaml_emit.h"
#include "scenario/model.h"

namespace runner::record {

using namespace detail;

namespace {

// Written in place of a credential the org refused (the recorded answer was 401).
constexpr const char* kRefusedCredential = "invalid";

struct Parsed {
  const RecordedExchange* ex = nullptr;
  std::string path;  // as the scenario writes it: relative to the API, or /services/...
  std::vector<std::pair<std::string, std::string>> query;
  bool token_request = false;
  std::optional<OJson> request_json;
  std::optional<OJson> response_json;
  std::string request_text;  // everything the client sent, for "was it sent before"
  std::string response_text;
};

std::string url_decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() &&
               std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
               std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> parse_pairs(const std::string& s) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find('&', start);
    if (end == std::string::npos) end = s.size();
    std::string part = s.substr(start, end - start);
    if (!part.empty()) {
      size_t eq = part.find('=');
      out.emplace_back(url_decode(part.substr(0, eq)),
                       eq == std::string::npos ? "" : url_decode(part.substr(eq + 1)));
    }
    start = end + 1;
  }
  return out;
}

std::string header(const Headers& h, const std::string& name) {
  for (const auto& [k, v] : h)
    if (iequals(k, name)) return v;
  return "";
}

std::optional<OJson> parse_json(const std::string& body, const std::string& content_type) {
  if (body.empty()) return std::nullopt;
  const bool says_json = fake_org::ascii_lower(content_type).find("json") != std::string::npos;
  const char first = body[body.find_first_not_of(" \t\r\n") == std::string::npos
                              ? 0
                              : body.find_first_not_of(" \t\r\n")];
  if (!says_json && first != '{' && first != '[') return std::nullopt;
  try {
    return OJson::parse(body);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Request headers a replay sends as recorded: the client's own (X-...),
// never credentials, cookies or what the transport and browsers add.
bool keep_request_header(const std::string& name) {
  const std::string n = fake_org::ascii_lower(name);
  if (n == "idempotency-key") return true;
  if (n.rfind("x-", 0) != 0) return false;
  return n.rfind("x-forwarded", 0) != 0 && n != "x-real-ip" &&
         n.find("token") == std::string::npos && n.find("auth") == std::string::npos &&
         n.find("key") == std::string::npos;
}

// The fake's reports on its own state (/__admin/health, the clock, contract
// checks, record counts, a reset's answer) describe whatever the org holds
// when asked (`records: 17`, `contract_violations: null` without
// --check-contracts), not what the recorded steps did: a replay expects
// their fields by type only, or it fails on the next org.
bool volatile_admin_path(const std::string& path) {
  static const std::set<std::string> kPaths = {"/__admin/health", "/__admin/clock",
                                               "/__admin/contracts", "/__admin/records",
                                               "/__admin/reset"};
  return kPaths.count(path) > 0;
}

// Each top-level field by its JSON type; null (a check that is off) and
// nested values only as present.
OJson expected_by_type(const OJson& body) {
  auto type = [](const OJson& v) -> OJson {
    if (v.is_string()) return OJson{{"$type", "string"}};
    if (v.is_boolean()) return OJson{{"$type", "boolean"}};
    if (v.is_number()) return OJson{{"$type", "number"}};
    return OJson{{"$exists", true}};
  };
  if (!body.is_object()) return type(body);
  OJson out = OJson::object();
  for (auto it = body.begin(); it != body.end(); ++it) out[it.key()] = type(it.value());
  return out;
}

std::string json_path_step(const std::string& base, const std::string& key) {
  bool plain = !key.empty() && (std::isalpha(static_cast<unsigned char>(key[0])) || key[0] == '_');
  for (char c : key) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (plain) return base + "." + key;
  std::string escaped;
  for (char c : key)
    escaped += (c == '\'' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return base + "['" + escaped + "']";
}

// The pattern that finds `value` inside `text` on replay: the text just
// before it (a path segment, a query key) and the shape of the value.
std::string capture_regex(const std::string& text, const std::string& value) {
  size_t at = text.find(value);
  std::string prefix;
  if (at > 0 && text[at - 1] == '/') {
    size_t p = at >= 2 ? text.rfind('/', at - 2) : std::string::npos;
    prefix = p == std::string::npos ? text.substr(0, at) : text.substr(p, at - p);
  } else if (at > 0 && text[at - 1] == '=') {
    size_t p = text.find_last_of("?&", at - 1);
    prefix = p == std::string::npos ? text.substr(0, at) : text.substr(p + 1, at - p - 1);
  } else {
    prefix = text.substr(at > 8 ? at - 8 : 0, at > 8 ? 8 : at);
  }
  std::string shape;
  const ValueKind kind = classify("", value);
  switch (kind) {
    case ValueKind::kPaymentIntentId:
      shape = "pi_[A-Za-z0-9]+";
      break;
    case ValueKind::kGuid:
      shape = "[0-9a-fA-F-]{36}";
      break;
    case ValueKind::kOpaqueId:
    case ValueKind::kAutoNumber: {
      // value_regex is anchored: the capture group is its body.
      std::string re = value_regex(kind, value);
      shape = re.substr(1, re.size() - 2);
      break;
    }
    default:
      shape = "[A-Za-z0-9]{" + std::to_string(value.size()) + "}";
  }
  return regex_escape(prefix) + "(" + shape + ")";
}

void collect_client_values(State& st, const Parsed& p) {
  for (const auto& v : generated_values_in(p.request_text)) st.client_values.insert(v);
  std::function<void(const OJson&)> walk = [&](const OJson& v) {
    if (v.is_string()) st.client_strings.insert(v.get<std::string>());
    // Only containers: iterating a primitive json yields the value itself.
    if (v.is_structured())
      for (const auto& item : v) walk(item);
  };
  if (p.request_json) walk(*p.request_json);
  for (const auto& [k, v] : p.query) st.client_strings.insert(v);
}

// Generated values in a response that the client did not send first.
void find_generated(State& st, size_t step, const Parsed& p) {
  auto note = [&](const std::string& text, Site site) {
    for (const auto& g : generated_values_in(text)) {
      if (st.client_values.count(g) || st.first_seen.count(g)) continue;
      Site s = site;
      s.step = step;
      if (text != g) s.regex = capture_regex(text, g);
      st.first_seen.emplace(g, s);
    }
  };
  std::function<void(const OJson&, const std::string&)> walk = [&](const OJson& v,
                                                                   const std::string& path) {
    if (v.is_string()) {
      note(v.get<std::string>(), Site{0, path, "", ""});
    } else if (v.is_object()) {
      for (auto it = v.begin(); it != v.end(); ++it)
        // Tokens are opaque: ids inside them are not the org's records.
        if (classify(it.key(), "") != ValueKind::kToken)
          walk(it.value(), json_path_step(path, it.key()));
    } else if (v.is_array()) {
      for (size_t i = 0; i < v.size(); ++i) walk(v[i], path + "[" + std::to_string(i) + "]");
    }
  };
  if (p.response_json) walk(*p.response_json, "$");
  for (const char* h : {"Location", "Content-Location"}) {
    const std::string value = header(p.ex->response_headers, h);
    if (!value.empty()) note(value, Site{0, "", h, ""});
  }
}

// A variable name from where the value was found: OneTime.Id -> onetime_id.
std::string name_for(const std::string& value, const Site& site, const std::string& step_path) {
  if (value.rfind("pi_", 0) == 0) return "pi";
  std::vector<std::string> keys;
  std::string path = site.header.empty() ? site.json_path : site.header;
  size_t i = 0;
  while (i < path.size()) {
    if (std::isalnum(static_cast<unsigned char>(path[i])) || path[i] == '_') {
      size_t j = i;
      while (j < path.size() &&
             (std::isalnum(static_cast<unsigned char>(path[j])) || path[j] == '_'))
        ++j;
      if (!(i > 0 && path[i - 1] == '[')) keys.push_back(path.substr(i, j - i));
      i = j;
    } else {
      ++i;
    }
  }
  const std::string suffix = classify("", value) == ValueKind::kGuid ? "guid" : "id";
  if (keys.empty()) {
    std::string resource = step_path.substr(1, step_path.find('/', 1) - 1);
    return resource + "_" + suffix;
  }
  std::string last = fake_org::ascii_lower(keys.back());
  if (last == "id" || last == "guid") {
    if (keys.size() >= 2) return fake_org::ascii_lower(keys[keys.size() - 2]) + "_" + last;
    std::string resource = step_path.substr(1, step_path.find('/', 1) - 1);
    return resource + "_" + last;
  }
  if (!site.regex.empty()) return last + "_" + suffix;
  return last;
}

// The `${env:NAME}` names a document refers to, in order of first use
// (`$${` is an escaped, literal `${`): exactly what a replay must be given.
void env_names_in(const OJson& v, std::vector<std::string>& names) {
  auto scan = [&](const std::string& s) {
    for (size_t i = 0; i < s.size(); ++i) {
      if (s.compare(i, 3, "$${") == 0) {
        i += 2;
      } else if (s.compare(i, 6, "${env:") == 0) {
        const size_t end = s.find('}', i);
        if (end == std::string::npos) return;
        const std::string name = s.substr(i + 6, end - i - 6);
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        i = end;
      }
    }
  };
  if (v.is_string()) scan(v.get<std::string>());
  if (v.is_object())
    for (auto it = v.begin(); it != v.end(); ++it) {
      scan(it.key());
      env_names_in(it.value(), names);
    }
  if (v.is_array())
    for (const auto& item : v) env_names_in(item, names);
}

OJson capture_spec(const Site& site) {
  if (!site.header.empty()) {
    OJson c = {{"header", site.header}};
    if (!site.regex.empty()) c["regex"] = site.regex;
    return c;
  }
  if (site.regex.empty()) return site.json_path;
  return OJson{{"path", site.json_path}, {"regex", site.regex}};
}

// The path as the scenario writes it (relative to the API, or /services/...),
// or nothing when the exchange went elsewhere.
std::optional<std::string> scenario_path(const std::string& path, const std::string& api) {
  if (!api.empty() && path.rfind(api, 0) == 0 &&
      (path.size() == api.size() || path[api.size()] == '/'))
    return path.size() == api.size() ? "/" : path.substr(api.size());
  if (is_absolute_org_path(path)) return path;
  return std::nullopt;
}

// True (and noted) when a token request spends an authorization code.
bool spends_authorization_code(const std::vector<std::pair<std::string, std::string>>& form,
                               const std::string& path, std::vector<std::string>& notes) {
  bool spends = false;
  for (const auto& [k, v] : form)
    if (k == "grant_type" && v == "authorization_code") {
      notes.push_back("POST " + path +
                      ": left out, an authorization code is used once and cannot be "
                      "replayed (the runner authenticates itself)");
      spends = true;
    }
  return spends;
}

// One exchange as a step will write it, or nothing (with a note) when a
// replay cannot or need not send it.
std::optional<Parsed> parse_exchange(const RecordedExchange& ex, const std::string& api,
                                     std::vector<std::string>& notes) {
  Parsed p;
  p.ex = &ex;
  const size_t q = ex.target.find('?');
  const std::string path = ex.target.substr(0, q);
  if (q != std::string::npos) p.query = parse_pairs(ex.target.substr(q + 1));
  const std::optional<std::string> relative = scenario_path(path, api);
  if (!relative) {
    notes.push_back(ex.method + " " + path + ": left out, outside the API (" + api + ")");
    return std::nullopt;
  }
  p.path = *relative;
  if (ex.method == "OPTIONS" || ex.method == "HEAD") {
    notes.push_back(ex.method + " " + path + ": left out (" + ex.method + ")");
    return std::nullopt;
  }
  p.token_request = p.path == "/services/oauth2/token";
  const std::string ctype = header(ex.request_headers, "Content-Type");
  std::vector<std::pair<std::string, std::string>> form;
  if (fake_org::ascii_lower(ctype).find("x-www-form-urlencoded") != std::string::npos)
    form = parse_pairs(ex.request_body);
  if (p.token_request && spends_authorization_code(form, path, notes)) return std::nullopt;
  p.request_json = parse_json(ex.request_body, ctype);
  p.response_json = parse_json(ex.response_body, header(ex.response_headers, "Content-Type"));
  p.request_text = ex.target + "\n" + ex.request_body;
  for (const auto& [k, v] : ex.request_headers) p.request_text += "\n" + v;
  return p;
}

std::vector<Parsed> parse_exchanges(const std::vector<RecordedExchange>& exchanges,
                                    const std::string& api, std::vector<std::string>& notes) {
  std::vector<Parsed> steps;
  for (const auto& ex : exchanges)
    if (auto p = parse_exchange(ex, api, notes)) steps.push_back(std::move(*p));
  return steps;
}

bool used_after(const std::vector<Parsed>& steps, size_t step, const std::string& value) {
  for (size_t j = step + 1; j < steps.size(); ++j)
    if (steps[j].request_text.find(value) != std::string::npos ||
        steps[j].ex->response_body.find(value) != std::string::npos)
      return true;
  return false;
}

// Generated values, where each first came back, and which come up again.
void find_reused_values(State& st, const std::vector<Parsed>& steps) {
  for (size_t i = 0; i < steps.size(); ++i) {
    collect_client_values(st, steps[i]);
    find_generated(st, i, steps[i]);
  }
  for (const auto& [value, site] : st.first_seen)
    if (used_after(steps, site.step, value)) st.var_of.emplace(value, "");
}

// Each captured value with the step that captures it, in step order.
using CaptureOrder = std::vector<std::pair<size_t, std::string>>;

// Pass 1: the captures and their names.
CaptureOrder name_captures(State& st, const std::vector<Parsed>& steps) {
  find_reused_values(st, steps);
  // Names in step order, so the file reads pi, pi2, ... as they came.
  CaptureOrder order;
  for (const auto& [value, var] : st.var_of) order.emplace_back(st.first_seen[value].step, value);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [step, value] : order)
    st.var_of[value] = st.new_name(name_for(value, st.first_seen[value], steps[step].path));
  // Client values the response echoed are not generated: forget their sites.
  st.client_values.clear();
  st.client_strings.clear();
  return order;
}

// The credentials the client sent become secrets the file must not hold;
// true when it sent any.
bool note_credentials(State& st, const RecordedExchange& ex) {
  bool sent_authorization = false;
  for (const auto& [k, v] : ex.request_headers)
    if (iequals(k, "Authorization")) {
      sent_authorization = true;
      const size_t sp = v.find(' ');
      const std::string credential = sp == std::string::npos ? v : v.substr(sp + 1);
      if (credential != kRefusedCredential) st.secret_values.push_back(credential);
    }
  return sent_authorization;
}

// The body as JSON, a form or text; text keeps its Content-Type header.
void add_request_body(State& st, const Parsed& p, OJson& req, OJson& headers) {
  const RecordedExchange& ex = *p.ex;
  const std::string ctype = header(ex.request_headers, "Content-Type");
  if (p.request_json) {
    req["json"] = request_value(st, "", *p.request_json);
  } else if (fake_org::ascii_lower(ctype).find("x-www-form-urlencoded") != std::string::npos) {
    OJson form = OJson::object();
    for (const auto& [k, v] : parse_pairs(ex.request_body)) form[k] = request_value(st, k, v);
    req["form"] = form;
  } else if (!ex.request_body.empty()) {
    req["body"] = st.substitute(ex.request_body);
    if (!ctype.empty()) headers["Content-Type"] = ctype;
  }
}

OJson request_spec(State& st, const Parsed& p, bool sent_authorization) {
  const RecordedExchange& ex = *p.ex;
  OJson req = OJson::object();
  req["method"] = ex.method;
  req["path"] = st.substitute(p.path);
  if (!p.query.empty()) {
    OJson q = OJson::object();
    for (const auto& [k, v] : p.query) q[k] = request_value(st, k, v);
    req["query"] = q;
  }
  OJson headers = OJson::object();
  for (const auto& [k, v] : ex.request_headers)
    if (keep_request_header(k)) headers[k] = st.substitute(v);
  add_request_body(st, p, req, headers);
  // A 401 to a credential the client sent (wrong, expired) replays only
  // with a credential the org refuses too: the runner's own would be taken.
  const bool refused = sent_authorization && ex.status == 401 && !p.token_request;
  if (refused) headers["Authorization"] = std::string("Bearer ") + kRefusedCredential;
  if (!headers.empty()) req["headers"] = headers;
  if (!ex.authenticated || p.token_request || refused) req["auth"] = false;
  return req;
}

OJson expectation(State& st, const Parsed& p, size_t step) {
  const RecordedExchange& ex = *p.ex;
  const bool strict = st.options.strict;
  OJson expect = OJson::object();
  expect["status"] = ex.status;
  if (p.response_json && volatile_admin_path(p.path)) {
    expect["json"] = expected_by_type(*p.response_json);
  } else if (p.response_json) {
    Expected e = expected_value(st, step, "", *p.response_json);
    if (e.keep) expect["json"] = e.value;
    if (strict) expect["exact"] = true;
  } else if (strict && !ex.response_body.empty()) {
    expect["body"] = st.substitute(ex.response_body);
  }
  if (strict) {
    const std::string rtype = header(ex.response_headers, "Content-Type");
    if (!rtype.empty())
      expect["headers"] =
          OJson{{"Content-Type", OJson{{"$contains", rtype.substr(0, rtype.find(';'))}}}};
  }
  return expect;
}

// Pass 2: one exchange as a request step.
OJson step_spec(State& st, const Parsed& p, size_t i, const CaptureOrder& order) {
  const bool sent_authorization = note_credentials(st, *p.ex);
  OJson req = request_spec(st, p, sent_authorization);
  collect_client_values(st, p);
  OJson step = OJson::object();
  if (req.size() == 2 && p.ex->method == "GET")
    step["request"] = p.ex->method + " " + req["path"].get<std::string>();
  else
    step["request"] = req;
  step["expect"] = expectation(st, p, i);
  OJson captures = OJson::object();
  for (const auto& [step_i, value] : order)
    if (step_i == i) captures[st.var_of[value]] = capture_spec(st.first_seen[value]);
  if (!captures.empty()) step["capture"] = captures;
  return step;
}

OJson scenario_document(const State& st, const OJson& steps, const std::vector<std::string>& env) {
  const GeneraliseOptions& options = st.options;
  OJson doc = OJson::object();
  doc["name"] = options.name;
  std::string description = options.description;
  if (!env.empty()) {
    std::string names;
    for (const auto& e : env) names += (names.empty() ? "" : ", ") + e;
    description += (description.empty() ? "" : " ") +
                   std::string("Secrets come from the environment: ") + names + ".";
  }
  if (!description.empty()) doc["description"] = description;
  doc["tags"] = OJson::array({"recorded"});
  if (!options.fixture.empty()) doc["fixture"] = options.fixture;
  if (!st.vars.empty()) doc["vars"] = st.vars;
  doc["steps"] = steps;
  return doc;
}

}  // namespace

SecretMode secret_mode_from_string(const std::string& s) {
  if (s == "env") return SecretMode::kEnv;
  if (s == "mask") return SecretMode::kMask;
  if (s == "keep") return SecretMode::kKeep;
  throw std::invalid_argument("expected env, mask or keep; got '" + s + "'");
}

Generalised generalise(const std::vector<RecordedExchange>& exchanges,
                       const GeneraliseOptions& options) {
  Generalised out;
  State st(options);
  const std::vector<Parsed> steps = parse_exchanges(exchanges, options.api_path, out.notes);
  const CaptureOrder order = name_captures(st, steps);
  OJson list = OJson::array();
  for (size_t i = 0; i < steps.size(); ++i) list.push_back(step_spec(st, steps[i], i, order));
  // Every variable the file refers to, and no other: taken from what was
  // written, so a secret written in a place no rule foresaw is listed too.
  std::vector<std::string> env;
  env_names_in(st.vars, env);
  env_names_in(list, env);
  out.scenario = scenario_document(st, list, env);
  out.env = env;
  out.secret_values = st.secret_values;
  out.card_numbers_kept = options.cards == SecretMode::kKeep;
  return out;
}

std::string scenario_yaml(const Generalised& g) {
  std::string text = to_yaml(g.scenario);
  for (const auto& secret : g.secret_values)
    if (secret.size() >= 6 && text.find(secret) != std::string::npos)
      throw std::runtime_error(
          "refusing to write the scenario: a secret value would be written (a generaliser bug)");
  // Card numbers the generaliser never saw as secrets too (a path that
  // bypassed substitute). Only the steps: the name and description are the
  // user's and the file's.
  std::function<bool(const OJson&)> holds_card = [&](const OJson& v) {
    if (v.is_string()) return !card_numbers_in(v.get<std::string>()).empty();
    if (v.is_object())
      for (auto it = v.begin(); it != v.end(); ++it)
        if (!card_numbers_in(it.key()).empty() || holds_card(it.value())) return true;
    if (v.is_array())
      for (const auto& item : v)
        if (holds_card(item)) return true;
    return false;
  };
  if (!g.card_numbers_kept && g.scenario.contains("steps") && holds_card(g.scenario["steps"]))
    throw std::runtime_error(
        "refusing to write the scenario: a card number would be written (a generaliser bug)");
  return text;
}

}  // namespace runner::record
