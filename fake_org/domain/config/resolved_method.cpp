#include "resolved_method.h"

namespace fake_org {

nlohmann::json ResolvedMethod::echo() const {
  // Filled key by key: an initializer list copies every value twice.
  nlohmann::json j = nlohmann::json::object();
  j["Name"] = method->name;
  j["Processor"] = processor->name;
  if (target) j["Target"] = target->name;
  if (parameters_given) j["Parameters"] = parameters;
  return j;
}

}  // namespace fake_org
