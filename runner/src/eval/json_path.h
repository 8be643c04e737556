#pragma once
// Where a capture reads from: a JSONPath subset (`$`, `.name`, `['name']`,
// `[0]`, `[-1]` for the last item) or a JSON pointer (`/a/b/0`).
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace runner {

using Json = nlohmann::json;
using PathToken = std::variant<std::string, long>;  // key, or array index

struct ParsedPath {
  std::vector<PathToken> tokens;
  std::string error;  // empty when well formed
};

ParsedPath parse_path(std::string_view path);
// nullptr when the path names nothing in `root`.
const Json* find_path(const Json& root, std::string_view path);

}  // namespace runner
