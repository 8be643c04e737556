#include "route_table.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

#include "yaml/yaml_input.h"

namespace contracts {
namespace {

const std::set<std::string> kMethods = {"GET", "POST", "PUT", "PATCH", "DELETE"};
const std::set<std::string> kRowKeys = {
    "operationId", "method",  "path",      "area",   "auth",        "openapi",  "tag",
    "summary",     "request", "responses", "params", "description", "callbacks"};
const std::set<std::string> kAreaKeys = {"mount", "guard", "not_found", "contract"};
const std::set<std::string> kContractKeys = {"every_route", "no_route", "wrong_method",
                                             "lenient_route_error", "lenient_other_error"};

// Problems found while reading, each with its line; thrown together at the end.
class Problems {
 public:
  explicit Problems(std::string source) : source_(std::move(source)) {}
  void add(const YAML::Node& at, const std::string& what) {
    text_ += source_ + ":" + std::to_string(at.Mark().line + 1) + ": " + what + "\n";
  }
  void add_at_line(int line, const std::string& what) {
    text_ += source_ + ":" + std::to_string(line) + ": " + what + "\n";
  }
  void throw_if_any() const {
    if (!text_.empty()) throw RouteTableError(text_);
  }

 private:
  std::string source_;
  std::string text_;
};

std::string scalar(const YAML::Node& map, const char* key) {
  const YAML::Node n = map[key];
  return n && n.IsScalar() ? n.Scalar() : std::string();
}

bool flag(const YAML::Node& map, const char* key, Problems& problems) {
  const YAML::Node n = map[key];
  if (!n) return false;
  const std::string s = n.IsScalar() ? n.Scalar() : std::string();
  if (s != "true" && s != "false") problems.add(n, std::string(key) + " must be true or false");
  return s == "true";
}

void unknown_keys(const YAML::Node& map, const std::set<std::string>& known, const std::string& who,
                  Problems& problems) {
  for (const auto& entry : map) {
    const std::string key = entry.first.Scalar();
    if (!known.count(key)) problems.add(entry.first, who + ": unknown key '" + key + "'");
  }
}

bool parse_auth(const std::string& s, AuthKind& out) {
  static const std::map<std::string, AuthKind> kinds = {{"bearer", AuthKind::kBearer},
                                                        {"client", AuthKind::kClient},
                                                        {"none", AuthKind::kNone},
                                                        {"loopback", AuthKind::kLoopback},
                                                        {"signature", AuthKind::kSignature}};
  auto it = kinds.find(s);
  if (it == kinds.end()) return false;
  out = it->second;
  return true;
}

// {400: error_400_response, ...} or {400: {schema: ..., description: ...}, ...}.
// With `text`, an entry {content: text, ...} is a plain-text body: its status
// goes there instead.
std::map<int, std::string> statuses(const YAML::Node& map, const std::string& who,
                                    Problems& problems, std::set<int>* text = nullptr) {
  std::map<int, std::string> out;
  if (!map) return out;
  if (!map.IsMap()) {
    problems.add(map, who + ": expected status: schema entries");
    return out;
  }
  for (const auto& entry : map) {
    const std::string key = entry.first.Scalar();
    int status = 0;
    if (key.size() == 3 &&
        std::all_of(key.begin(), key.end(), [](unsigned char c) { return c >= '0' && c <= '9'; }))
      status = std::stoi(key);
    if (status < 100 || status > 599) {
      problems.add(entry.first, who + ": '" + key + "' is not an HTTP status");
      continue;
    }
    const YAML::Node& value = entry.second;
    if (text && value.IsMap() && scalar(value, "content") == "text") {
      text->insert(status);
      continue;
    }
    std::string schema = value.IsMap() ? scalar(value, "schema") : value.Scalar();
    if (schema.empty()) problems.add(value, who + " " + key + ": names no schema");
    out[status] = schema;
  }
  return out;
}

RouteArea parse_area(const std::string& name, const YAML::Node& node, Problems& problems) {
  RouteArea a;
  a.name = name;
  const std::string who = "area " + name;
  if (!node.IsMap()) {
    problems.add(node, who + ": expected a map");
    return a;
  }
  unknown_keys(node, kAreaKeys, who, problems);
  a.mount = scalar(node, "mount");
  const bool mount_ok = a.mount == "$base_path" || a.mount == "/" ||
                        (a.mount.size() > 2 && a.mount.front() == '/' && a.mount.back() == '/');
  if (!mount_ok) problems.add(node, who + ": mount must be $base_path, / or /folder/");
  const std::string guard = scalar(node, "guard");
  if (!parse_auth(guard, a.guard) || a.guard == AuthKind::kClient ||
      a.guard == AuthKind::kSignature)
    problems.add(node, who + ": guard must be bearer, loopback or none");
  a.not_found = scalar(node, "not_found");
  if (const YAML::Node c = node["contract"]) {
    unknown_keys(c, kContractKeys, who + " contract", problems);
    a.has_contract = true;
    a.contract.every_route = statuses(c["every_route"], who + " every_route", problems);
    a.contract.no_route = statuses(c["no_route"], who + " no_route", problems);
    a.contract.wrong_method = statuses(c["wrong_method"], who + " wrong_method", problems);
    a.contract.lenient_route_error = scalar(c, "lenient_route_error");
    a.contract.lenient_other_error = scalar(c, "lenient_other_error");
    if (a.contract.lenient_route_error.empty() || a.contract.lenient_other_error.empty())
      problems.add(c, who + ": a contract names lenient_route_error and lenient_other_error");
  }
  return a;
}

void parse_request(const YAML::Node& node, RouteRow& r, const std::string& who,
                   Problems& problems) {
  if (!node) return;
  const std::string content = scalar(node, "content");
  if (content == "json") {
    r.request = RequestContent::kJson;
    r.request_schema = scalar(node, "schema");
    if (r.request_schema.empty()) problems.add(node, who + ": a json request names its schema");
  } else if (content == "form") {
    r.request = RequestContent::kForm;
  } else if (content == "csv") {
    r.request = RequestContent::kCsv;
  } else if (content != "none") {
    problems.add(node, who + ": request content must be json, form, csv or none");
  }
}

void parse_params(const YAML::Node& node, RouteRow& r, const std::string& who, Problems& problems) {
  if (!node) return;
  for (const auto& entry : node) {
    const std::string name = entry.first.Scalar();
    if (r.path.find("{" + name + "}") == std::string::npos)
      problems.add(entry.first, who + ": params names {" + name + "}, which the path lacks");
    const std::string chars = entry.second.IsMap() ? scalar(entry.second, "chars") : "";
    if (chars.empty() || chars == "any") {
      r.params[name] = ParamChars::kAny;
    } else if (chars == "word") {
      r.params[name] = ParamChars::kWord;
    } else {
      problems.add(entry.second, who + ": chars must be word or any");
    }
  }
}

RouteRow parse_row(const YAML::Node& node, Problems& problems) {
  RouteRow r;
  r.line = static_cast<int>(node.Mark().line) + 1;
  if (!node.IsMap()) {
    problems.add(node, "a route is a map");
    return r;
  }
  r.operation_id = scalar(node, "operationId");
  const std::string who = r.operation_id.empty() ? "route" : r.operation_id;
  unknown_keys(node, kRowKeys, who, problems);
  r.method = scalar(node, "method");
  r.path = scalar(node, "path");
  r.area = scalar(node, "area");
  r.summary = scalar(node, "summary");
  if (r.operation_id.empty()) problems.add(node, "route without an operationId");
  if (!kMethods.count(r.method))
    problems.add(node, who + ": method must be one of GET, POST, PUT, PATCH, DELETE");
  if (r.path.empty() || r.path.front() != '/')
    problems.add(node, who + ": path must start with '/'");
  if (!parse_auth(scalar(node, "auth"), r.auth))
    problems.add(node, who + ": auth must be bearer, client, none, loopback or signature");
  r.openapi = flag(node, "openapi", problems);
  parse_request(node["request"], r, who, problems);
  r.responses = statuses(node["responses"], who + " responses", problems, &r.text_responses);
  if (!r.text_responses.empty() && r.responses.empty())
    problems.add(node, who + ": a row with text responses names a schema for another status");
  parse_params(node["params"], r, who, problems);
  return r;
}

// What a row may not say given its area, and what two rows may not share.
void check_rows(const RouteTable& t, Problems& problems) {
  std::set<std::string> ids;
  std::set<std::string> routes;
  for (const RouteRow& r : t.rows) {
    const std::string who = r.operation_id.empty() ? "route" : r.operation_id;
    if (!r.operation_id.empty() && !ids.insert(r.operation_id).second)
      problems.add_at_line(r.line, who + ": operationId used twice");
    if (!routes.insert(r.area + " " + r.method + " " + r.path).second)
      problems.add_at_line(r.line,
                           who + ": " + r.method + " " + r.path + " twice in area " + r.area);
    const RouteArea* a = t.area(r.area);
    if (!a) {
      problems.add_at_line(r.line, who + ": unknown area '" + r.area + "'");
      continue;
    }
    // The guard runs before routing, so every row of the area has its auth.
    if (a->guard != AuthKind::kNone && r.auth != a->guard)
      problems.add_at_line(r.line, who + ": area " + a->name + " checks its guard on every row");
    if (r.in_contract() && !a->has_contract)
      problems.add_at_line(
          r.line, who + ": names response schemas, but area " + a->name + " has no contract");
    if (r.openapi && r.summary.empty())
      problems.add_at_line(r.line, who + ": an OpenAPI row needs a summary");
  }
}

}  // namespace

const RouteArea* RouteTable::area(std::string_view name) const {
  for (const RouteArea& a : areas)
    if (a.name == name) return &a;
  return nullptr;
}

std::vector<std::string_view> path_segments(std::string_view path) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    out.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

namespace {
RouteTable route_table_of(const YAML::Node& doc, const std::string& source) {
  Problems problems(source);
  RouteTable t;
  const YAML::Node areas = doc["areas"];
  const YAML::Node routes = doc["routes"];
  if (!areas || !areas.IsMap() || !routes || !routes.IsSequence())
    throw RouteTableError(source + ": expected the maps 'areas' and the list 'routes'");
  for (const auto& entry : areas)
    t.areas.push_back(parse_area(entry.first.Scalar(), entry.second, problems));
  for (const auto& row : routes) t.rows.push_back(parse_row(row, problems));
  check_rows(t, problems);
  problems.throw_if_any();
  return t;
}
}  // namespace

RouteTable parse_route_table(std::string_view yaml, const std::string& source) {
  common::YamlDocument loaded = common::load_yaml_document(yaml);
  if (loaded.error)
    throw RouteTableError(source + ":" + std::to_string(loaded.error->line) + ":" +
                          std::to_string(loaded.error->column) + ": " + loaded.error->message);
  return route_table_of(loaded.root, source);
}

}  // namespace contracts
