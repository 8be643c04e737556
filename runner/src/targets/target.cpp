#include "targets/target.h"

namespace runner {

std::unique_ptr<Target> make_target(const std::string& spec, const TargetOptions& options) {
  if (spec.empty() || spec == "embedded") return make_embedded_target();
  if (spec.rfind("http://", 0) == 0 || spec.rfind("https://", 0) == 0)
    return make_url_target(spec, options);
  auto ends = [&](const char* suf) {
    std::string s(suf);
    return spec.size() >= s.size() && spec.compare(spec.size() - s.size(), s.size(), s) == 0;
  };
  if (ends(".yaml") || ends(".yml")) return make_sandbox_target(spec, options);
  throw TargetError(
      "--target is 'embedded', a fake-org URL (http://127.0.0.1:8080) or a "
      "sandbox configuration file (.yaml); got '" +
      spec + "'");
}

}  // namespace runner
