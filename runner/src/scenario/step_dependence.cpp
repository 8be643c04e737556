#include "scenario/step_dependence.h"

#include <map>
#include <set>

#include "eval/interpolate.h"

namespace runner {
namespace {

void names_in_text(const std::string& text, std::set<std::string>& out) {
  for (const auto& ref : scan_template(text).refs) out.insert(ref.name);
}

void names_in_json(const Json& v, std::set<std::string>& out) {
  if (v.is_string()) names_in_text(v.get<std::string>(), out);
  if (!v.is_structured()) return;
  for (const auto& [k, sub] : v.items()) {
    if (v.is_object()) names_in_text(k, out);
    names_in_json(sub, out);
  }
}

void names_in_request(const RequestSpec& r, std::set<std::string>& out) {
  names_in_text(r.path, out);
  names_in_text(r.raw, out);
  names_in_json(r.json, out);
  for (const auto* pairs : {&r.query, &r.headers, &r.form})
    for (const auto& [k, v] : *pairs) {
      names_in_text(k, out);
      names_in_text(v, out);
    }
}

// The variables a step's request is written with.
std::set<std::string> names_used(const Step& step) {
  std::set<std::string> out;
  if (const auto* r = std::get_if<RequestStep>(&step.body)) names_in_request(r->request, out);
  if (const auto* p = std::get_if<PollStep>(&step.body)) names_in_request(p->request, out);
  if (const auto* q = std::get_if<QueryStep>(&step.body)) names_in_text(q->soql, out);
  if (const auto* b = std::get_if<BulkStep>(&step.body))
    for (const auto& part : b->data)
      if (!part.literal) names_in_text(part.text, out);
  if (const auto* p = std::get_if<PspStep>(&step.body)) {
    names_in_text(p->redirect, out);
    names_in_text(p->session, out);
  }
  return out;
}

bool changes_org(const Step& step) {
  auto writes = [](const RequestSpec& r) {
    return r.method != "GET" && r.method != "HEAD" && r.method != "OPTIONS";
  };
  switch (step.kind) {
    case StepKind::kRequest:
      return writes(std::get<RequestStep>(step.body).request);
    case StepKind::kPoll:
      return writes(std::get<PollStep>(step.body).request);
    case StepKind::kPsp:
    case StepKind::kClock:
    case StepKind::kBulk:
      return true;
    case StepKind::kAwaitWebhook:
    case StepKind::kQuery:
      return false;
  }
  return false;
}

std::string step_label(const Scenario& s, size_t i) {
  return "step " + std::to_string(i + 1) + " '" + s.steps[i].name + "'";
}

}  // namespace

std::string earlier_step_dependence(const Scenario& s, size_t index) {
  if (index >= s.steps.size()) return "";
  std::map<std::string, size_t> captured_by;  // the latest earlier step capturing each name
  std::vector<size_t> changers;
  for (size_t i = 0; i < index; ++i) {
    for (const auto& c : s.steps[i].captures) captured_by[c.var] = i;
    if (changes_org(s.steps[i])) changers.push_back(i);
  }
  std::string uses;
  for (const auto& name : names_used(s.steps[index])) {
    auto it = captured_by.find(name);
    if (it == captured_by.end()) continue;
    uses += (uses.empty() ? "" : ", ") + ("${" + name + "} from " + step_label(s, it->second));
  }
  std::string changed;
  constexpr size_t kNamed = 3;  // a long scenario's writers are counted past these
  for (size_t k = 0; k < changers.size() && k < kNamed; ++k)
    changed += (changed.empty() ? "" : ", ") + step_label(s, changers[k]);
  if (changers.size() > kNamed)
    changed += " and " + std::to_string(changers.size() - kNamed) + " more";
  std::string out;
  if (!uses.empty()) out = "it uses " + uses;
  if (!changed.empty())
    out += (out.empty() ? "" : "; ") + changed + " changed" + " the org before it";
  return out;
}

}  // namespace runner
