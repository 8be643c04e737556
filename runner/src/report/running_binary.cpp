#include "report/running_binary.h"

#include <filesystem>
#include <system_error>

#include "net/curl.h"

namespace runner {

std::string sibling_binary(const std::string& name) {
  std::error_code ec;
  // Linux names the running binary in /proc; elsewhere PATH decides.
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return name;
  const std::filesystem::path beside = self.parent_path() / name;
  if (!std::filesystem::exists(beside, ec)) return name;
  const std::string path = beside.string();
  const bool plain = path.find_first_not_of(
                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789/._-+") == std::string::npos;
  return plain ? path : shell_quote(path);
}

}  // namespace runner
