#include "commands/explore/shrink.h"

#include <optional>
#include <set>

#include "commands/explore/mutations.h"
#include "eval/interpolate.h"
#include "json/yaml_json.h"

namespace runner::explore {

namespace {

using nlohmann::json;

bool explore_try(Case& c, Case candidate, const std::function<bool(const Case&)>& still_fails,
                 size_t max_tries, ShrinkStats& stats) {
  if (stats.tries >= max_tries || !references_defined(candidate)) return false;
  ++stats.tries;
  if (!still_fails(candidate)) return false;
  c = std::move(candidate);
  ++stats.cuts;
  return true;
}

// Steps first, last to first: later steps depend on earlier ones, so a
// dependent goes before what it depends on is tried.
void explore_cut_steps(Case& c, size_t failing, const std::function<bool(const Case&)>& still_fails,
                       size_t max_tries, ShrinkStats& stats, const std::string& step_name) {
  for (size_t i = c.scenario.steps.size(); i-- > 0;) {
    failing = step_named(c, step_name);
    if (i == failing || i >= c.scenario.steps.size() || c.meta[i].focus || c.meta[i].prelude)
      continue;
    Case candidate = c;
    candidate.scenario.steps.erase(candidate.scenario.steps.begin() + static_cast<long>(i));
    candidate.meta.erase(candidate.meta.begin() + static_cast<long>(i));
    explore_try(c, std::move(candidate), still_fails, max_tries, stats);
  }
}

// A raw body a family wrote: a JSON object's text (wrong_content_type), or a
// first member written twice and then one (duplicate_key: `head` is
// `{"K":"duplicate",`, `keep` is K). Its object's members can be cut.
struct ExploreRawBody {
  std::string head;
  json object;
  std::string keep;
};

std::optional<ExploreRawBody> explore_raw_body(const std::string& raw) {
  const json whole = json::parse(raw, nullptr, false);
  if (whole.is_object() && whole.dump() == raw) return ExploreRawBody{"", whole, ""};
  const std::string marker = ":\"duplicate\",";
  const size_t at = raw.find(marker);
  if (raw.empty() || raw[0] != '{' || at == std::string::npos) return std::nullopt;
  const std::string head = raw.substr(0, at + marker.size());
  const std::string tail = "{" + raw.substr(head.size());
  const json object = json::parse(tail, nullptr, false);
  const json first = json::parse(head.substr(0, head.size() - 1) + "}", nullptr, false);
  if (!object.is_object() || object.dump() != tail || !first.is_object() || first.size() != 1)
    return std::nullopt;
  return ExploreRawBody{head, object, first.begin().key()};
}

std::string explore_raw_text(const ExploreRawBody& b) {
  const std::string tail = b.object.dump();
  if (b.head.empty()) return tail;
  if (tail == "{}") return b.head.substr(0, b.head.size() - 1) + "}";
  return b.head + tail.substr(1);
}

// A raw body's members, each cut kept while the failure stays (the
// duplicated member stays: without it the near-miss would be another).
bool explore_cut_raw_member(Case& c, size_t at, const std::function<bool(const Case&)>& still_fails,
                            size_t max_tries, ShrinkStats& stats) {
  const auto& raw = std::get<RequestStep>(c.scenario.steps[at].body).request.raw;
  const auto body = explore_raw_body(raw);
  if (!body) return false;
  for (const auto& p : value_pointers(body->object)) {
    const json::json_pointer ptr(p);
    if (!body->object.at(ptr.parent_pointer()).is_object()) continue;
    if (!body->keep.empty() && p == "/" + pointer_escape(body->keep)) continue;
    ExploreRawBody cut = *body;
    cut.object.at(ptr.parent_pointer()).erase(ptr.back());
    Case candidate = c;
    std::get<RequestStep>(candidate.scenario.steps[at].body).request.raw = explore_raw_text(cut);
    if (explore_try(c, std::move(candidate), still_fails, max_tries, stats)) return true;
  }
  return false;
}

// The members of one request's body, each cut kept while the failure stays.
void explore_cut_members(Case& c, const std::string& step_name,
                         const std::function<bool(const Case&)>& still_fails, size_t max_tries,
                         ShrinkStats& stats) {
  for (bool cut = true; cut;) {
    cut = false;
    const size_t at = step_named(c, step_name);
    if (at >= c.scenario.steps.size()) return;
    const auto* rs = std::get_if<RequestStep>(&c.scenario.steps[at].body);
    if (rs && rs->request.body == RequestSpec::Body::kRaw) {
      cut = explore_cut_raw_member(c, at, still_fails, max_tries, stats);
      continue;
    }
    if (!rs || rs->request.body != RequestSpec::Body::kJson) return;
    for (const auto& p : value_pointers(rs->request.json)) {
      const json::json_pointer ptr(p);
      if (!rs->request.json.at(ptr.parent_pointer()).is_object()) continue;
      Case candidate = c;
      auto& body = std::get<RequestStep>(candidate.scenario.steps[at].body).request.json;
      body.at(ptr.parent_pointer()).erase(ptr.back());
      if (explore_try(c, std::move(candidate), still_fails, max_tries, stats)) {
        cut = true;
        break;  // the pointers moved: walk the smaller body again
      }
    }
  }
}

// The optional members the body builder added to step `at` (its request
// stays valid without them), dependents first, each cut kept while the
// failure stays.
void explore_cut_optional(Case& c, size_t at, const std::function<bool(const Case&)>& still_fails,
                          size_t max_tries, ShrinkStats& stats) {
  const std::vector<std::string> members = c.meta[at].optional;  // a copy: cuts replace c
  for (size_t k = members.size(); k-- > 0;) {
    const auto* rs = std::get_if<RequestStep>(&c.scenario.steps[at].body);
    const json::json_pointer ptr(members[k]);
    if (!rs || rs->request.body != RequestSpec::Body::kJson || !rs->request.json.contains(ptr))
      continue;
    Case candidate = c;
    auto& body = std::get<RequestStep>(candidate.scenario.steps[at].body).request.json;
    body.at(ptr.parent_pointer()).erase(ptr.back());
    // A parent the member alone made (Settings for Settings.SourceConnector) goes with it.
    const json::json_pointer parent = ptr.parent_pointer();
    if (!parent.empty() && body.at(parent).empty())
      body.at(parent.parent_pointer()).erase(parent.back());
    auto& optional = candidate.meta[at].optional;
    optional.erase(optional.begin() + static_cast<long>(k));
    explore_try(c, std::move(candidate), still_fails, max_tries, stats);
  }
}

}  // namespace

bool references_defined(const Case& c) {
  std::set<std::string> defined;
  auto known = [&](const std::string& text) {
    for (const auto& ref : scan_template(text).refs)
      if (!defined.count(ref.name) && !is_builtin_name(ref.name)) return false;
    return true;
  };
  for (const auto& s : c.scenario.steps) {
    std::string text;
    if (const auto* r = std::get_if<RequestStep>(&s.body)) {
      text = r->request.path + " " + r->request.raw + " " + r->request.json.dump();
      for (const auto& [k, v] : r->request.query) text += " " + v;
      if (r->expect.json) text += " " + r->expect.json->dump();
    } else if (const auto* q = std::get_if<QueryStep>(&s.body)) {
      text = q->soql;
      if (q->expect.json) text += " " + q->expect.json->dump();
    }
    if (!known(text)) return false;
    for (const auto& cap : s.captures) defined.insert(cap.var);
  }
  return true;
}

size_t step_named(const Case& c, const std::string& name) {
  for (size_t i = 0; i < c.scenario.steps.size(); ++i)
    if (c.scenario.steps[i].name == name) return i;
  return c.scenario.steps.size();
}

Case shrink_case(Case c, const std::string& step_name,
                 const std::function<bool(const Case&)>& still_fails, size_t max_tries,
                 ShrinkStats& stats, bool cut_members) {
  explore_cut_steps(c, step_named(c, step_name), still_fails, max_tries, stats, step_name);
  if (!cut_members) {
    // A valid request keeps what it needs; the optional members may go,
    // the failing step's first.
    const size_t failing = step_named(c, step_name);
    if (failing < c.meta.size()) explore_cut_optional(c, failing, still_fails, max_tries, stats);
    for (size_t i = 0; i < c.meta.size(); ++i)
      if (i != failing) explore_cut_optional(c, i, still_fails, max_tries, stats);
    return c;
  }
  explore_cut_members(c, step_name, still_fails, max_tries, stats);
  // A refused write's failure shows on the count after it: cut the write's body too.
  for (size_t i = 0; i < c.meta.size(); ++i)
    if (c.meta[i].focus && c.scenario.steps[i].name != step_name) {
      const std::string focus = c.scenario.steps[i].name;  // a copy: cuts replace the steps
      explore_cut_members(c, focus, still_fails, max_tries, stats);
      break;
    }
  return c;
}

}  // namespace runner::explore
