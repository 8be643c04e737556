#include "commands/parity/difference.h"

#include <map>
#include <set>

#include "checker/explain.h"
#include "commands/record/value_kinds.h"
#include "json/yaml_json.h"

namespace runner::parity {
namespace {

using nlohmann::json;

// As a client reads a body: 10 and 10.0 are one type.
std::string type_name(const json& v) {
  std::string t = contracts::core::json_type_name(v);
  return t == "integer" ? "number" : t == "unknown" ? "other" : t;
}

// Per pointer: the types seen there, the enum-like values and the shapes of
// the enum-like and generated values (array items share the pointer `/*`, so
// their order and count do not matter).
struct Leaf {
  std::set<std::string> types;
  std::set<std::string> enums;
  std::set<std::string> shapes;
};
using Shape = std::map<std::string, Leaf>;

void shape_of(const json& v, const std::string& key, const std::string& ptr, Shape& out) {
  Leaf& leaf = out[ptr];
  leaf.types.insert(type_name(v));
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      shape_of(it.value(), it.key(), ptr + "/" + pointer_escape(it.key()), out);
  } else if (v.is_array()) {
    for (const auto& item : v) shape_of(item, key, ptr + "/*", out);
  } else if (v.is_string()) {
    const std::string s = v.get<std::string>();
    // Values that differ per run but share a shape ("Ref <token>") are one value.
    if (record::is_enum_like(key, s)) {
      leaf.enums.insert(record::normalise_generated(s));
      leaf.shapes.insert(record::shape_of(s));
    } else if (record::is_generated(record::classify(key, s))) {
      // A random token reads like a word now and then ("psp_qezaponizbamcayisvfu"
      // has no digit and no run of four consonants): it is enum-like on one side
      // and generated on the other, and only its shape says they are one kind.
      leaf.shapes.insert(record::shape_of(s));
    }
  }
}

std::string join(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

std::string outcome_text(const StepResult& s) {
  std::string t = to_string(s.outcome);
  if (s.outcome == Outcome::kFailed && !s.failures.empty()) {
    std::string m = s.failures.front().message;
    t += ": " + m.substr(0, m.find('\n'));
  }
  return t;
}

}  // namespace

void to_json(json& j, const Difference& d) {
  j = json{
      {"file", d.file},      {"scenario", d.scenario}, {"step", d.step}, {"step_name", d.step_name},
      {"kind", d.kind},      {"path", d.path},         {"a", d.a},       {"b", d.b},
      {"allowed", d.allowed}};
  if (d.allowed) j["reason"] = d.reason;
}

std::vector<Difference> compare_bodies(const json& a, const json& b) {
  Shape sa, sb;
  shape_of(a, "", "", sa);
  shape_of(b, "", "", sb);
  std::vector<Difference> out;
  auto diff = [&](const std::string& kind, const std::string& ptr, std::string x, std::string y) {
    Difference d;
    d.kind = kind;
    d.path = ptr.empty() ? "/" : ptr;
    d.a = std::move(x);
    d.b = std::move(y);
    out.push_back(std::move(d));
  };
  for (const auto& [ptr, la] : sa) {
    auto it = sb.find(ptr);
    if (it == sb.end()) {
      diff("field", ptr, join(la.types), "absent");
      continue;
    }
    const Leaf& lb = it->second;
    if (la.types != lb.types) {
      diff("type", ptr, join(la.types), join(lb.types));
      continue;
    }
    if ((!la.enums.empty() || !lb.enums.empty()) && la.enums != lb.enums && la.shapes != lb.shapes)
      diff("enum", ptr, join(la.enums), join(lb.enums));
  }
  for (const auto& [ptr, lb] : sb)
    if (!sa.count(ptr)) diff("field", ptr, "absent", join(lb.types));
  return out;
}

std::vector<Difference> compare_steps(const StepResult& a, const StepResult& b) {
  std::vector<Difference> out;
  if (a.outcome != b.outcome) {
    Difference d;
    d.kind = "step";
    d.a = outcome_text(a);
    d.b = outcome_text(b);
    out.push_back(d);
  }
  // Every difference names its step, whatever kind the step is: an
  // await_webhook or a step not run has no exchange, and left here without
  // its number it read as "#0" with no name.
  auto named = [&](std::vector<Difference> found) {
    for (auto& d : found) {
      d.step = a.index + 1;
      d.step_name = a.name;
    }
    return found;
  };
  const HttpResponse* ra = a.exchange && a.exchange->response ? &*a.exchange->response : nullptr;
  const HttpResponse* rb = b.exchange && b.exchange->response ? &*b.exchange->response : nullptr;
  if (!ra || !rb) return named(std::move(out));
  if (ra->status != rb->status) {
    Difference d;
    d.kind = "status";
    d.a = std::to_string(ra->status);
    d.b = std::to_string(rb->status);
    out.push_back(d);
  }
  auto ja = ra->json();
  auto jb = rb->json();
  if (ja && jb) {
    auto body = compare_bodies(*ja, *jb);
    out.insert(out.end(), body.begin(), body.end());
  } else if (ja.has_value() != jb.has_value()) {
    Difference d;
    d.kind = "type";
    d.path = "/";
    d.a = ja ? "JSON" : "not JSON";
    d.b = jb ? "JSON" : "not JSON";
    out.push_back(d);
  }
  return named(std::move(out));
}

}  // namespace runner::parity
