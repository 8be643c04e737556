#include "commands/explore/mutations.h"

#include "commands/explore/operations.h"
#include "commands/explore/sequences.h"
#include "json/yaml_json.h"

namespace runner::explore {

namespace {

using nlohmann::json;

void explore_walk(const json& v, const std::string& at, std::vector<std::string>& out) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) {
      const std::string p = at + "/" + pointer_escape(it.key());
      out.push_back(p);
      explore_walk(it.value(), p, out);
    }
  } else if (v.is_array()) {
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string p = at + "/" + std::to_string(i);
      out.push_back(p);
      explore_walk(v[i], p, out);
    }
  }
}

bool explore_has_json(const RequestSpec& r) {
  return r.body == RequestSpec::Body::kJson && r.json.is_object() && !r.json.empty();
}

std::vector<std::string> explore_string_pointers(const json& body) {
  std::vector<std::string> out;
  for (const auto& p : value_pointers(body)) {
    const json& v = body.at(json::json_pointer(p));
    if (v.is_string() && v.get<std::string>().find("${") == std::string::npos) out.push_back(p);
  }
  return out;
}

bool explore_has_string(const RequestSpec& r) {
  return explore_has_json(r) && !explore_string_pointers(r.json).empty();
}

bool explore_has_id_ref(const RequestSpec& r) {
  return r.path.find("${") != std::string::npos ||
         (explore_has_json(r) && r.json.dump().find("${") != std::string::npos);
}

void explore_to_raw(RequestSpec& r, const std::string& text, const std::string& type) {
  r.body = RequestSpec::Body::kRaw;
  r.raw = text;
  r.json = nullptr;
  r.headers.emplace_back("Content-Type", type);
}

std::string explore_missing(RequestSpec& r, Rng& rng) {
  std::vector<std::string> members;
  for (const auto& p : value_pointers(r.json)) {
    const auto parent = json::json_pointer(p).parent_pointer();
    if (r.json.at(parent).is_object()) members.push_back(p);
  }
  const std::string p = rng.pick(members);
  const json::json_pointer ptr(p);
  r.json.at(ptr.parent_pointer()).erase(ptr.back());
  return "missing " + p;
}

std::string explore_wrong_type(RequestSpec& r, Rng& rng) {
  const std::string p = rng.pick(value_pointers(r.json));
  json& v = r.json.at(json::json_pointer(p));
  if (v.is_string())
    v = 12345;
  else if (v.is_number())
    v = "twelve";
  else if (v.is_boolean())
    v = "yes";
  else if (v.is_object())
    v = json::array({"x"});
  else
    v = "x";
  return "wrong type at " + p;
}

std::string explore_enum_outside(RequestSpec& r, Rng& rng) {
  const std::string p = rng.pick(explore_string_pointers(r.json));
  json& v = r.json.at(json::json_pointer(p));
  v = v.get<std::string>() + "x";
  return "value just outside at " + p;
}

std::string explore_too_long(RequestSpec& r, Rng& rng) {
  const std::string p = rng.pick(explore_string_pointers(r.json));
  static const std::vector<size_t> lengths = {81, 256, 32769};
  const size_t n = rng.pick(lengths);
  r.json.at(json::json_pointer(p)) = std::string(n, 'x');
  return "too long at " + p + " (" + std::to_string(n) + " chars)";
}

std::string explore_duplicate_key(RequestSpec& r, Rng&) {
  const std::string key = r.json.begin().key();
  const std::string text =
      "{" + json(key).dump() + ":" + json("duplicate").dump() + "," + r.json.dump().substr(1);
  explore_to_raw(r, text, "application/json");
  return "duplicate key /" + key;
}

std::string explore_unknown_field(RequestSpec& r, Rng&) {
  r.json["ExploreUnknown"] = "x";
  return "unknown field /ExploreUnknown";
}

std::string explore_malformed_id(RequestSpec& r, Rng&) {
  const size_t at = r.path.find("${");
  if (at != std::string::npos) {
    const size_t end = r.path.find('}', at);
    r.path.insert(end + 1, "x");
    return "malformed id in the path";
  }
  std::string text = r.json.dump();
  const size_t b = text.find("${");
  text.insert(text.find('}', b) + 1, "x");
  r.json = json::parse(text);
  return "malformed id in the body";
}

std::string explore_bad_utf8(RequestSpec& r, Rng& rng) {
  const std::string p = rng.pick(explore_string_pointers(r.json));
  const std::string marker = "EXPLORE_BAD_UTF8";
  r.json.at(json::json_pointer(p)) = marker;
  std::string text = r.json.dump();
  text.replace(text.find(marker), marker.size(), "caf\xC3\x28");
  explore_to_raw(r, text, "application/json");
  return "bytes that are not UTF-8 at " + p;
}

std::string explore_wrong_content_type(RequestSpec& r, Rng&) {
  explore_to_raw(r, r.json.dump(), "text/plain");
  return "Content-Type text/plain";
}

}  // namespace

std::vector<std::string> value_pointers(const nlohmann::json& body) {
  std::vector<std::string> out;
  explore_walk(body, "", out);
  return out;
}

const std::vector<Family>& families() {
  static const std::vector<Family> table = {
      {"missing", explore_has_json, explore_missing, true},
      {"wrong_type", explore_has_json, explore_wrong_type, true},
      {"enum_outside", explore_has_string, explore_enum_outside, true},
      {"too_long", explore_has_string, explore_too_long, true},
      {"duplicate_key", explore_has_json, explore_duplicate_key, true},
      {"unknown_field", explore_has_json, explore_unknown_field, true},
      {"malformed_id", explore_has_id_ref, explore_malformed_id, true},
      {"bad_utf8", explore_has_string, explore_bad_utf8, false},
      {"wrong_content_type", explore_has_json, explore_wrong_content_type, true},
  };
  return table;
}

Case near_miss_case(const Case& valid, uint64_t seed, size_t index) {
  Rng rng = Rng::for_case(seed ^ 0x6E6561726D697373ULL, index);
  Case c = valid;
  // The steps a near-miss can change, and a family for one of them.
  std::vector<std::pair<size_t, const Family*>> choices;
  for (size_t i = 0; i < c.scenario.steps.size(); ++i) {
    const auto* rs = std::get_if<RequestStep>(&c.scenario.steps[i].body);
    if (!rs || !c.meta[i].rule.empty()) continue;
    for (const auto& f : families())
      if (f.applies(rs->request)) choices.emplace_back(i, &f);
  }
  if (choices.empty()) return c;  // nothing to change: the valid case again
  const auto [focus, family] = rng.pick(choices);
  c.scenario.steps.resize(focus + 1);
  c.meta.resize(focus + 1);
  Step& step = c.scenario.steps[focus];
  step.captures.clear();
  auto& rs = std::get<RequestStep>(step.body);
  rs.expect.json.reset();
  c.meta[focus].focus = true;
  c.meta[focus].rule.clear();
  c.family = family->name;
  c.mutation = family->apply(rs.request, rng);
  c.unwritable = !family->writable;
  step.name = c.meta[focus].op + ": " + c.mutation;
  const Operation* op = find_operation(c.meta[focus].op);
  if (op)
    for (const auto& object : op->counts) {
      c.scenario.steps.insert(c.scenario.steps.begin() + static_cast<long>(focus),
                              count_step(object, false));
      c.meta.insert(c.meta.begin() + static_cast<long>(focus), StepMeta{});
      c.scenario.steps.push_back(count_step(object, true));
      c.meta.push_back(StepMeta{"", "refused_write_unchanged", false});
    }
  c.scenario.name += " near-miss";
  return c;
}

}  // namespace runner::explore
