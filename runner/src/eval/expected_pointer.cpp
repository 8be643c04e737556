#include "eval/expected_pointer.h"

#include <vector>

#include "eval/matchers.h"
#include "json/yaml_json.h"

namespace runner {
namespace {

// A JSON pointer's reference tokens, "~1" and "~0" undone.
std::vector<std::string> pointer_tokens(const std::string& pointer) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < pointer.size() && pointer[at] == '/') {
    const size_t next = pointer.find('/', at + 1);
    std::string raw = pointer.substr(at + 1, next == std::string::npos ? next : next - at - 1);
    std::string token;
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '~' && i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
        token += raw[++i] == '0' ? '~' : '/';
      } else {
        token += raw[i];
      }
    }
    out.push_back(std::move(token));
    if (next == std::string::npos) break;
    at = next;
  }
  return out;
}

bool array_index(const std::string& token, size_t size, size_t& index) {
  if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos) return false;
  index = std::stoul(token);
  return index < size;
}

}  // namespace

std::string expected_pointer(const nlohmann::json& expected, const std::string& actual_pointer) {
  const nlohmann::json* e = &expected;
  std::string out;
  for (const auto& token : pointer_tokens(actual_pointer)) {
    size_t index = 0;
    if (is_matcher(*e)) {
      // The token is an item of the actual array the matcher ranges over.
      const bool one_item =
          e->contains("$each") || (e->contains("$contains") && !(*e)["$contains"].is_array());
      if (!one_item) {
        // Which of several wanted items failed is not known: the matcher's line.
        if (e->contains("$contains")) out += "/$contains";
        break;
      }
      const char* key = e->contains("$each") ? "$each" : "$contains";
      out += std::string("/") + key;
      e = &(*e)[key];
    } else if (e->is_object() && e->contains(token)) {
      out += "/" + pointer_escape(token);
      e = &(*e)[token];
    } else if (e->is_array() && array_index(token, e->size(), index)) {
      out += "/" + token;
      e = &(*e)[index];
    } else {
      break;
    }
  }
  return out;
}

}  // namespace runner
