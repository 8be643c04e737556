#include "commands/explore/mutations.h"

#include "commands/explore/operations.h"
#include "commands/explore/schema_facts.h"
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

bool explore_query_has_id_ref(const RequestSpec& r) {
  for (const auto& [k, v] : r.query)
    if (v.find("${") != std::string::npos && v.find("${today") == std::string::npos) return true;
  return false;
}

bool explore_has_id_ref(const RequestSpec& r) {
  return r.path.find("${") != std::string::npos || explore_query_has_id_ref(r) ||
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

std::string explore_wrong_type_at(RequestSpec& r, const std::string& p) {
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

std::string explore_wrong_type(RequestSpec& r, Rng& rng) {
  return explore_wrong_type_at(r, rng.pick(value_pointers(r.json)));
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

// The body's values the request schema bounds, each with a value just outside.
std::vector<std::pair<std::string, Outside>> explore_bounded(const RequestSpec& r) {
  std::vector<std::pair<std::string, Outside>> out;
  const std::string schema = request_schema_name(r.method, r.path);
  if (schema.empty()) return out;
  for (const auto& p : value_pointers(r.json)) {
    const json& v = r.json.at(json::json_pointer(p));
    if (v.is_string() && v.get<std::string>().find("${") != std::string::npos) continue;
    for (auto& o : just_outside(value_rules(schema, p), v)) out.emplace_back(p, std::move(o));
  }
  return out;
}

bool explore_has_bound(const RequestSpec& r) {
  return explore_has_json(r) && !explore_bounded(r).empty();
}

std::string explore_schema_bound(RequestSpec& r, Rng& rng) {
  const auto [p, o] = rng.pick(explore_bounded(r));
  r.json.at(json::json_pointer(p)) = o.value;
  return "just outside the schema at " + p + " (" + o.rule + ")";
}

// Objects of the body whose schema forbids unknown members; the root when the
// request has no schema (the data API's records).
std::vector<std::string> explore_closed_objects(const RequestSpec& r) {
  const std::string schema = request_schema_name(r.method, r.path);
  if (schema.empty()) return {""};
  std::vector<std::string> out;
  std::vector<std::string> all = value_pointers(r.json);
  all.insert(all.begin(), "");
  for (const auto& p : all)
    if (r.json.at(json::json_pointer(p)).is_object() && value_rules(schema, p).closed)
      out.push_back(p);
  if (out.empty()) out.push_back("");
  return out;
}

std::string explore_unknown_field(RequestSpec& r, Rng& rng) {
  const std::string p = rng.pick(explore_closed_objects(r));
  r.json.at(json::json_pointer(p))["ExploreUnknown"] = "x";
  return "unknown field " + p + "/ExploreUnknown";
}

std::string explore_malformed_id(RequestSpec& r, Rng&) {
  const size_t at = r.path.find("${");
  if (at != std::string::npos) {
    const size_t end = r.path.find('}', at);
    r.path.insert(end + 1, "x");
    return "malformed id in the path";
  }
  for (auto& [k, v] : r.query) {
    const size_t b = v.find("${");
    if (b == std::string::npos || v.find("${today") != std::string::npos) continue;
    v.insert(v.find('}', b) + 1, "x");
    return "malformed id in the query's " + k;
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

// The steps after `focus` dropped, its expectation cleared, and the counts a
// refused write must leave alone around it.
Case explore_finish_near_miss(Case c, size_t focus, const Family& family,
                              const std::string& mutation) {
  c.scenario.steps.resize(focus + 1);
  c.meta.resize(focus + 1);
  Step& step = c.scenario.steps[focus];
  step.captures.clear();
  std::get<RequestStep>(step.body).expect.json.reset();
  c.meta[focus].focus = true;
  c.meta[focus].rule.clear();
  c.family = family.name;
  c.mutation = mutation;
  c.unwritable = !family.writable;
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

const Family* explore_family(const std::string& name) {
  for (const auto& f : families())
    if (f.name == name) return &f;
  return &families().front();
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
      {"schema_bound", explore_has_bound, explore_schema_bound, true},
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
  auto& rs = std::get<RequestStep>(c.scenario.steps[focus].body);
  const std::string mutation = family->apply(rs.request, rng);
  return explore_finish_near_miss(std::move(c), focus, *family, mutation);
}

Case near_miss_on(const Case& valid, size_t focus, uint64_t seed, size_t index,
                  const std::string& family_name) {
  Case c = valid;
  auto& r = std::get<RequestStep>(c.scenario.steps[focus].body).request;
  std::vector<const Family*> fit;
  for (const auto& f : families())
    if (f.applies(r) && (family_name.empty() || f.name == family_name)) fit.push_back(&f);
  if (fit.empty()) return valid;
  Rng rng = Rng::for_case(seed ^ 0x6E6561726D697373ULL, index);
  const Family& family = *fit[index % fit.size()];
  const std::string mutation = family.apply(r, rng);
  return explore_finish_near_miss(std::move(c), focus, family, mutation);
}

Case near_miss_at(const Case& valid, size_t focus, const std::string& pointer) {
  Case c = valid;
  auto& r = std::get<RequestStep>(c.scenario.steps[focus].body).request;
  for (const auto& [p, o] : explore_bounded(r)) {
    if (p != pointer) continue;
    r.json.at(json::json_pointer(p)) = o.value;
    return explore_finish_near_miss(std::move(c), focus, *explore_family("schema_bound"),
                                    "just outside the schema at " + p + " (" + o.rule + ")");
  }
  const std::string mutation = explore_wrong_type_at(r, pointer);
  return explore_finish_near_miss(std::move(c), focus, *explore_family("wrong_type"), mutation);
}

}  // namespace runner::explore
