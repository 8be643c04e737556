#include "commands/explore/explore_case.h"

namespace runner::explore {

std::string Case::root() const {
  for (const auto& m : meta)
    if (!m.op.empty() && !m.prelude) return m.op;
  return "";
}

std::string Case::operation() const {
  for (const auto& m : meta)
    if (m.focus) return m.op;
  for (size_t i = meta.size(); i-- > 0;)
    if (!meta[i].op.empty()) return meta[i].op;
  return "";
}

}  // namespace runner::explore
