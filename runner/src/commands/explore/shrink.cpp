#include "commands/explore/shrink.h"

#include "commands/explore/mutations.h"

namespace runner::explore {

namespace {

using nlohmann::json;

bool explore_try(Case& c, Case candidate, const std::function<bool(const Case&)>& still_fails,
                 size_t max_tries, ShrinkStats& stats) {
  if (stats.tries >= max_tries) return false;
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

size_t step_named(const Case& c, const std::string& name) {
  for (size_t i = 0; i < c.scenario.steps.size(); ++i)
    if (c.scenario.steps[i].name == name) return i;
  return c.scenario.steps.size();
}

Case shrink_case(Case c, const std::string& step_name,
                 const std::function<bool(const Case&)>& still_fails, size_t max_tries,
                 ShrinkStats& stats, bool cut_members) {
  explore_cut_steps(c, step_named(c, step_name), still_fails, max_tries, stats, step_name);
  if (cut_members) explore_cut_members(c, step_name, still_fails, max_tries, stats);
  return c;
}

}  // namespace runner::explore
