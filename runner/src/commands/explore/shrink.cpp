#include "commands/explore/shrink.h"

#include <set>

#include "commands/explore/mutations.h"
#include "eval/interpolate.h"

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

// The members of one request's body, each cut kept while the failure stays.
void explore_cut_members(Case& c, const std::string& step_name,
                         const std::function<bool(const Case&)>& still_fails, size_t max_tries,
                         ShrinkStats& stats) {
  for (bool cut = true; cut;) {
    cut = false;
    const size_t at = step_named(c, step_name);
    if (at >= c.scenario.steps.size()) return;
    const auto* rs = std::get_if<RequestStep>(&c.scenario.steps[at].body);
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
  if (!cut_members) return c;
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
