#include "commands/pact/pact_file.h"

#include <algorithm>
#include <cctype>

namespace runner::pact {

namespace {

int pact_version(const nlohmann::json& doc) {
  const nlohmann::json meta = doc.value("metadata", nlohmann::json::object());
  std::string v;
  for (const char* key : {"pactSpecification", "pact-specification"})
    if (meta.contains(key) && meta[key].is_object() && meta[key].contains("version") &&
        meta[key]["version"].is_string())
      v = meta[key]["version"].get<std::string>();
  if (v.empty() && meta.contains("pactSpecificationVersion") &&
      meta["pactSpecificationVersion"].is_string())
    v = meta["pactSpecificationVersion"].get<std::string>();
  if (!v.empty() && std::isdigit(static_cast<unsigned char>(v[0]))) return v[0] - '0';
  for (const auto& i : doc.value("interactions", nlohmann::json::array()))
    if (i.is_object() && i.contains("type")) return 4;
  return 2;
}

nlohmann::json normal_matcher(nlohmann::json m, const std::string& where) {
  if (!m.is_object()) throw PactError(where + ": a matcher must be an object, got " + m.dump());
  if (!m.contains("match")) {
    if (m.contains("regex"))
      m["match"] = "regex";
    else if (m.contains("min") || m.contains("max"))
      m["match"] = "type";
    else
      throw PactError(where + ": a matcher without \"match\": " + m.dump());
  }
  if (!m["match"].is_string()) throw PactError(where + ": \"match\" must be a string");
  return m;
}

// A v3/v4 rule entry: {"matchers": [...], "combine": "AND"|"OR"}.
RuleSet rule_set(const nlohmann::json& entry, const std::string& where) {
  RuleSet r;
  if (entry.is_object() && entry.contains("matchers")) {
    if (!entry["matchers"].is_array()) throw PactError(where + ": \"matchers\" must be a list");
    for (const auto& m : entry["matchers"]) r.matchers.push_back(normal_matcher(m, where));
    r.any = entry.value("combine", "AND") == "OR";
  } else {
    r.matchers.push_back(normal_matcher(entry, where));  // v2: the matcher itself
  }
  return r;
}

std::string unquote_header_path(std::string rest) {
  if (rest.size() > 4 && rest.compare(0, 2, "['") == 0 &&
      rest.compare(rest.size() - 2, 2, "']") == 0)
    return rest.substr(2, rest.size() - 4);
  if (!rest.empty() && rest[0] == '.') return rest.substr(1);
  return rest;
}

// v2 keeps every category in one map of "$.body...", "$.headers.NAME", ...
void read_v2_rules(const nlohmann::json& rules, HttpPart& part, const std::string& where) {
  for (auto it = rules.begin(); it != rules.end(); ++it) {
    const std::string& key = it.key();
    const std::string at = where + " matchingRules '" + key + "'";
    if (key.rfind("$.body", 0) == 0)
      part.body_rules.emplace_back("$" + key.substr(6), rule_set(it.value(), at));
    else if (key.rfind("$.headers", 0) == 0 || key.rfind("$.header", 0) == 0)
      part.header_rules.emplace_back(
          unquote_header_path(key.substr(key.rfind("$.headers", 0) == 0 ? 9 : 8)),
          rule_set(it.value(), at));
  }
}

void read_v3_rules(const nlohmann::json& rules, HttpPart& part, RuleSet* status,
                   const std::string& where) {
  for (auto it = rules.begin(); it != rules.end(); ++it) {
    const std::string at = where + " matchingRules." + it.key();
    if (!it.value().is_object()) throw PactError(at + " must be an object");
    if (it.key() == "body") {
      for (auto r = it.value().begin(); r != it.value().end(); ++r) {
        std::string path = r.key();
        if (path.rfind("$.body", 0) == 0) path = "$" + path.substr(6);
        part.body_rules.emplace_back(path, rule_set(r.value(), at + " '" + r.key() + "'"));
      }
    } else if (it.key() == "header" || it.key() == "headers") {
      for (auto r = it.value().begin(); r != it.value().end(); ++r)
        part.header_rules.emplace_back(r.key(), rule_set(r.value(), at + " '" + r.key() + "'"));
    } else if (it.key() == "status" && status) {
      for (auto r = it.value().begin(); r != it.value().end(); ++r)
        *status = rule_set(r.value(), at);
    }
  }
}

std::string header_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string s;
    for (const auto& x : v)
      s += (s.empty() ? "" : ", ") + (x.is_string() ? x.get<std::string>() : x.dump());
    return s;
  }
  return v.dump();
}

bool is_json_type(const std::string& content_type) {
  std::string ct;
  for (char c : content_type) ct += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ct.find("json") != std::string::npos;
}

std::string content_type_of(const HttpPart& p) {
  for (auto it = p.headers.begin(); it != p.headers.end(); ++it) {
    std::string k = it.key();
    for (char& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (k == "content-type") return it.value().get<std::string>();
  }
  return "";
}

void read_body(const nlohmann::json& j, int version, HttpPart& p, const std::string& where) {
  if (!j.contains("body")) return;
  const nlohmann::json& b = j["body"];
  nlohmann::json content = b;
  std::string ct = content_type_of(p);
  if (version >= 4 && b.is_object() && b.contains("content")) {
    content = b["content"];
    if (b.contains("contentType") && b["contentType"].is_string()) ct = b["contentType"];
    if (b.value("encoded", nlohmann::json(false)) == "base64")
      throw PactError(where + ": a base64-encoded body is not supported");
  }
  p.has_body = !content.is_null() || version < 3;
  if (content.is_string() && (ct.empty() || !is_json_type(ct))) {
    p.body = content;
    return;
  }
  if (content.is_string() && is_json_type(ct)) {
    auto parsed = nlohmann::json::parse(content.get<std::string>(), nullptr, false);
    if (!parsed.is_discarded()) content = parsed;
  }
  p.body = content;
  p.json_body = true;
}

void read_part(const nlohmann::json& j, int version, HttpPart& p, RuleSet* status,
               const std::string& where) {
  if (!j.is_object()) throw PactError(where + " must be an object");
  if (j.contains("headers") && j["headers"].is_object())
    for (auto it = j["headers"].begin(); it != j["headers"].end(); ++it)
      p.headers[it.key()] = header_text(it.value());
  read_body(j, version, p, where);
  if (j.contains("matchingRules") && j["matchingRules"].is_object()) {
    if (version >= 3)
      read_v3_rules(j["matchingRules"], p, status, where);
    else
      read_v2_rules(j["matchingRules"], p, where);
  }
}

std::string url_decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+')
      out += ' ';
    else if (s[i] == '%' && i + 2 < s.size() &&
             std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
             std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else
      out += s[i];
  }
  return out;
}

void read_query(const nlohmann::json& q, PactRequest& r) {
  if (q.is_string()) {  // v2: "a=1&b=2"
    const std::string s = q.get<std::string>();
    size_t i = 0;
    while (i <= s.size() && !s.empty()) {
      size_t amp = s.find('&', i);
      if (amp == std::string::npos) amp = s.size();
      const std::string pair = s.substr(i, amp - i);
      const size_t eq = pair.find('=');
      const std::string name = url_decode(pair.substr(0, eq));
      const std::string value = eq == std::string::npos ? "" : url_decode(pair.substr(eq + 1));
      auto it =
          std::find_if(r.query.begin(), r.query.end(), [&](auto& p) { return p.first == name; });
      if (it == r.query.end())
        r.query.push_back({name, {value}});
      else
        it->second.push_back(value);
      i = amp + 1;
    }
  } else if (q.is_object()) {
    for (auto it = q.begin(); it != q.end(); ++it) {
      std::vector<std::string> values;
      if (it.value().is_array())
        for (const auto& v : it.value())
          values.push_back(v.is_string() ? v.get<std::string>() : v.dump());
      else
        values.push_back(header_text(it.value()));
      r.query.push_back({it.key(), values});
    }
  }
}

std::vector<ProviderStateRef> read_states(const nlohmann::json& i) {
  std::vector<ProviderStateRef> out;
  for (const char* key : {"providerState", "provider_state"})
    if (i.contains(key) && i[key].is_string()) out.push_back({i[key].get<std::string>(), {}});
  if (i.contains("providerStates") && i["providerStates"].is_array())
    for (const auto& s : i["providerStates"]) {
      if (!s.is_object() || !s.contains("name") || !s["name"].is_string())
        throw PactError("a provider state needs a \"name\": " + s.dump());
      ProviderStateRef ref{s["name"].get<std::string>(), nlohmann::json::object()};
      if (s.contains("params") && s["params"].is_object()) ref.params = s["params"];
      out.push_back(std::move(ref));
    }
  return out;
}

Interaction read_interaction(const nlohmann::json& i, int version, size_t index) {
  Interaction out;
  const std::string where = "interaction " + std::to_string(index + 1);
  out.description = i.value("description", where);
  out.states = read_states(i);
  if (!i.contains("request") || !i.contains("response"))
    throw PactError(where + " ('" + out.description + "') has no request or response");
  const auto& req = i["request"];
  read_part(req, version, out.request, nullptr, where + " request");
  out.request.method = req.value("method", "GET");
  for (char& c : out.request.method)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  out.request.path = req.value("path", "/");
  if (req.contains("query")) read_query(req["query"], out.request);
  if (req.contains("generators") && req["generators"].is_object())
    out.request.generators = req["generators"];
  const auto& res = i["response"];
  read_part(res, version, out.response, &out.response.status_rule, where + " response");
  if (res.contains("status") && !res["status"].is_number_integer())
    throw PactError(where + " response: \"status\" must be a number");
  out.response.status = res.value("status", 200);
  return out;
}

}  // namespace

Pact read_pact(const nlohmann::json& doc) {
  if (!doc.is_object()) throw PactError("a Pact file is a JSON object");
  Pact p;
  p.version = pact_version(doc);
  if (doc.contains("consumer") && doc["consumer"].is_object())
    p.consumer = doc["consumer"].value("name", "");
  if (doc.contains("provider") && doc["provider"].is_object())
    p.provider = doc["provider"].value("name", "");
  if (!doc.contains("interactions")) {
    if (doc.contains("messages")) throw PactError("a message pact has no HTTP interactions");
    throw PactError("no \"interactions\" in the Pact file");
  }
  if (!doc["interactions"].is_array()) throw PactError("\"interactions\" must be a list");
  const auto& list = doc["interactions"];
  for (size_t n = 0; n < list.size(); ++n) {
    const auto& i = list[n];
    if (!i.is_object())
      throw PactError("interaction " + std::to_string(n + 1) + " is not an object");
    const std::string type = i.value("type", "Synchronous/HTTP");
    if (type != "Synchronous/HTTP") {
      p.notes.push_back("left out '" + i.value("description", "") + "': a " + type +
                        " interaction (only HTTP interactions are verified)");
      continue;
    }
    p.interactions.push_back(read_interaction(i, p.version, n));
  }
  return p;
}

}  // namespace runner::pact
