#include "eval/interpolate.h"

#include <cstdlib>
#include <random>
#include <regex>

#include "json/yaml_json.h"
#include "util/calendar.h"

namespace runner {
namespace {

const std::regex& today_offset_re() {
  static const std::regex re(R"(^today([+-])([0-9]{1,5})([dw])$)");
  return re;
}

std::string add_to_date(const std::string& today, const std::string& name) {
  std::smatch m;
  std::regex_match(name, m, today_offset_re());
  auto d = fake_org::parse_date(today);
  if (!d) throw InterpolationError("the org's date '" + today + "' is not YYYY-MM-DD");
  int n = std::stoi(m[2].str()) * (m[3] == "w" ? 7 : 1);
  if (m[1] == "-") n = -n;
  return fake_org::format_date(fake_org::add_days(*d, n));
}

}  // namespace

TemplateScan scan_template(std::string_view text) {
  TemplateScan out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$') continue;
    if (text.compare(i, 3, "$${") == 0) {
      i += 2;
      continue;
    }
    if (text.compare(i, 2, "${") != 0) continue;
    size_t close = text.find('}', i + 2);
    if (close == std::string_view::npos) {
      out.error = "unterminated '${' at offset " + std::to_string(i);
      return out;
    }
    std::string name(text.substr(i + 2, close - i - 2));
    if (name.size() > 5 && name.rfind("today", 0) == 0 && (name[5] == '+' || name[5] == '-') &&
        !is_builtin_name(name)) {
      // ${today} is a day, so only whole days move it; time units are the
      // clock step's (its `advance` takes ms, s, m, h, d and w).
      out.error = "'${" + name +
                  "}' is not a date offset: ${today+N<unit>} or ${today-N<unit>} with unit d "
                  "(days) or w (weeks); to move the org's time by ms, s, m or h use a clock "
                  "step's advance";
      return out;
    }
    if (!is_variable_name(name) && !is_builtin_name(name)) {
      out.error = "'${" + name + "}' is not a variable name (letters, digits, _ and .)";
      return out;
    }
    out.refs.push_back({name, i, close + 1});
    i = close;
  }
  return out;
}

bool is_variable_name(std::string_view name) {
  static const std::regex re("^[A-Za-z_][A-Za-z0-9_.]*$");
  return std::regex_match(name.begin(), name.end(), re);
}

bool is_builtin_name(std::string_view name) {
  static const std::set<std::string, std::less<>> kNames = {
      "uuid", "today", "now", "webhook_url", "api_base", "instance_url"};
  if (kNames.count(name)) return true;
  if (name.rfind("env:", 0) == 0) {
    static const std::regex env("^env:[A-Za-z_][A-Za-z0-9_]*$");
    return std::regex_match(name.begin(), name.end(), env);
  }
  return std::regex_match(name.begin(), name.end(), today_offset_re());
}

std::vector<RefIssue> check_references(const Json& value, const std::set<std::string>& defined,
                                       const std::string& pointer) {
  std::vector<RefIssue> out;
  auto check_text = [&](const std::string& s, const std::string& ptr) {
    TemplateScan scan = scan_template(s);
    if (!scan.error.empty()) {
      out.push_back({ptr, scan.error});
      return;
    }
    for (const auto& r : scan.refs) {
      if (is_builtin_name(r.name) || defined.count(r.name)) continue;
      std::string known;
      for (const auto& d : defined) known += (known.empty() ? "" : ", ") + d;
      out.push_back({ptr, "'${" + r.name + "}' is not defined by vars or an earlier capture" +
                              (known.empty() ? std::string() : " (defined: " + known + ")")});
    }
  };
  if (value.is_string()) {
    check_text(value.get<std::string>(), pointer);
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) {
      auto sub = check_references(value[i], defined, pointer + "/" + std::to_string(i));
      out.insert(out.end(), sub.begin(), sub.end());
    }
  } else if (value.is_object()) {
    for (const auto& [k, v] : value.items()) {
      std::string ptr = pointer + "/" + pointer_escape(k);
      check_text(k, ptr);
      auto sub = check_references(v, defined, ptr);
      out.insert(out.end(), sub.begin(), sub.end());
    }
  }
  return out;
}

std::string to_text(const Json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string make_uuid_v4() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  uint64_t hi = rng(), lo = rng();
  hi = (hi & 0xFFFFFFFFFFFF0FFFull) | 0x0000000000004000ull;
  lo = (lo & 0x3FFFFFFFFFFFFFFFull) | 0x8000000000000000ull;
  char buf[37];
  std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xFFFF), static_cast<unsigned>(hi & 0xFFFF),
                static_cast<unsigned>(lo >> 48),
                static_cast<unsigned long long>(lo & 0xFFFFFFFFFFFFull));
  return buf;
}

Json Interpolator::resolve(const std::string& name) const {
  auto it = vars_.find(name);
  if (it != vars_.end()) return it->second;
  auto need = [&](const std::function<std::string()>& f) -> std::string {
    if (!f) throw InterpolationError("'${" + name + "}' is not available on this target");
    return f();
  };
  if (name == "uuid") return make_uuid_v4();
  if (name == "today") return need(builtins_.today);
  if (name == "now") return need(builtins_.now);
  if (name == "webhook_url") return need(builtins_.webhook_url);
  if (name == "api_base") return need(builtins_.api_base);
  if (name == "instance_url") return need(builtins_.instance_url);
  if (name.rfind("env:", 0) == 0) {
    std::string var = name.substr(4);
    std::optional<std::string> v;
    if (builtins_.env) {
      v = builtins_.env(var);
    } else if (const char* e = std::getenv(var.c_str())) {
      v = e;
    }
    if (!v) throw InterpolationError("environment variable " + var + " is not set");
    return *v;
  }
  if (std::regex_match(name, today_offset_re())) return add_to_date(need(builtins_.today), name);
  throw InterpolationError("'${" + name + "}' is not defined");
}

std::string Interpolator::text(const std::string& text) const {
  return this->text(text, to_text);
}

std::string Interpolator::text(const std::string& text,
                               const std::function<std::string(const Json&)>& render) const {
  TemplateScan scan = scan_template(text);
  if (!scan.error.empty()) throw InterpolationError(scan.error);
  // "$${" is unescaped in the literal parts only, so a substituted value that
  // happens to hold "$${" is sent exactly as it is.
  auto literal = [](std::string part) {
    for (size_t p = part.find("$${"); p != std::string::npos; p = part.find("$${", p + 2))
      part.erase(p, 1);
    return part;
  };
  std::string out;
  size_t at = 0;
  for (const auto& r : scan.refs) {
    out += literal(text.substr(at, r.begin - at));
    out += render(resolve(r.name));
    at = r.end;
  }
  out += literal(text.substr(at));
  return out;
}

Json Interpolator::value(const Json& v) const {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    TemplateScan scan = scan_template(s);
    if (!scan.error.empty()) throw InterpolationError(scan.error);
    if (scan.refs.size() == 1 && scan.refs[0].begin == 0 && scan.refs[0].end == s.size())
      return resolve(scan.refs[0].name);
    return text(s);
  }
  if (v.is_array()) {
    Json out = Json::array();
    for (const auto& item : v) out.push_back(value(item));
    return out;
  }
  if (v.is_object()) {
    Json out = Json::object();
    for (const auto& [k, item] : v.items()) out[text(k)] = value(item);
    return out;
  }
  return v;
}

}  // namespace runner
