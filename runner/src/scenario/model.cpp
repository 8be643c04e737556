#include "scenario/model.h"

#include <algorithm>

namespace runner {

std::string SourcePos::str() const {
  std::string s = file;
  if (line > 0) s += ":" + std::to_string(line) + ":" + std::to_string(column);
  return s;
}

const char* to_string(StepKind k) {
  switch (k) {
    case StepKind::kRequest:
      return "request";
    case StepKind::kAwaitWebhook:
      return "await_webhook";
    case StepKind::kPsp:
      return "psp";
    case StepKind::kClock:
      return "clock";
    case StepKind::kPoll:
      return "poll";
    case StepKind::kQuery:
      return "query";
    case StepKind::kBulk:
      return "bulk";
  }
  return "?";
}

bool is_absolute_org_path(const std::string& path) {
  // /id/: the identity service (the token response's id), on the instance.
  return path.rfind("/services/", 0) == 0 || path.rfind("/__admin", 0) == 0 ||
         path.rfind("/id/", 0) == 0;
}

bool Step::needs_admin() const {
  switch (kind) {
    case StepKind::kPsp:
    case StepKind::kClock:
      return true;
    case StepKind::kRequest:
      return std::get<RequestStep>(body).request.path.rfind("/__admin", 0) == 0;
    case StepKind::kPoll:
      return std::get<PollStep>(body).request.path.rfind("/__admin", 0) == 0;
    case StepKind::kAwaitWebhook:
    case StepKind::kQuery:
    case StepKind::kBulk:
      return false;
  }
  return false;
}

std::optional<size_t> Scenario::first_admin_step() const {
  for (size_t i = 0; i < steps.size(); ++i)
    if (steps[i].needs_admin()) return i;
  return std::nullopt;
}

bool Scenario::has_tag(const std::string& t) const {
  return std::find(tags.begin(), tags.end(), t) != tags.end();
}

}  // namespace runner
