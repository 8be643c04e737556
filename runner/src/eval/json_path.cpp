#include "eval/json_path.h"

#include <cctype>

namespace runner {
namespace {

ParsedPath parse_pointer(std::string_view p) {
  ParsedPath out;
  size_t i = 1;
  while (i <= p.size()) {
    size_t next = p.find('/', i);
    if (next == std::string_view::npos) next = p.size();
    std::string tok;
    for (size_t j = i; j < next; ++j) {
      if (p[j] == '~' && j + 1 < next && (p[j + 1] == '0' || p[j + 1] == '1')) {
        tok += p[j + 1] == '0' ? '~' : '/';
        ++j;
      } else if (p[j] == '~') {
        out.error = "'~' must be followed by 0 or 1 in a JSON pointer";
        return out;
      } else {
        tok += p[j];
      }
    }
    out.tokens.emplace_back(
        tok);  // digits stay keys here; find_path reads them as indexes on arrays
    i = next + 1;
  }
  return out;
}

ParsedPath parse_jsonpath(std::string_view p) {
  ParsedPath out;
  size_t i = 1;  // after '$'
  while (i < p.size()) {
    if (p[i] == '.') {
      size_t j = i + 1;
      while (j < p.size() && p[j] != '.' && p[j] != '[') ++j;
      if (j == i + 1) {
        out.error = "empty name after '.' at offset " + std::to_string(i);
        return out;
      }
      out.tokens.emplace_back(std::string(p.substr(i + 1, j - i - 1)));
      i = j;
    } else if (p[i] == '[') {
      size_t close = p.find(']', i);
      if (close == std::string_view::npos) {
        out.error = "unclosed '[' at offset " + std::to_string(i);
        return out;
      }
      std::string_view inner = p.substr(i + 1, close - i - 1);
      if (inner.size() >= 2 && (inner.front() == '\'' || inner.front() == '"') &&
          inner.back() == inner.front()) {
        out.tokens.emplace_back(std::string(inner.substr(1, inner.size() - 2)));
      } else {
        bool digits = !inner.empty();
        for (size_t k = 0; k < inner.size(); ++k)
          digits = digits && (std::isdigit(static_cast<unsigned char>(inner[k])) ||
                              (k == 0 && inner[k] == '-' && inner.size() > 1));
        if (!digits || inner.size() > 9) {
          out.error = "'[" + std::string(inner) +
                      "]' is neither an index (at most 9 digits) nor a quoted name";
          return out;
        }
        out.tokens.emplace_back(std::stol(std::string(inner)));
      }
      i = close + 1;
    } else {
      out.error = "expected '.' or '[' at offset " + std::to_string(i);
      return out;
    }
  }
  return out;
}

}  // namespace

ParsedPath parse_path(std::string_view path) {
  if (path.empty()) return parse_jsonpath("$");
  if (path[0] == '$') return parse_jsonpath(path);
  if (path[0] == '/') return parse_pointer(path);
  ParsedPath bad;
  bad.error = "a capture path starts with '$' (JSONPath) or '/' (JSON pointer)";
  return bad;
}

const Json* find_path(const Json& root, std::string_view path) {
  ParsedPath parsed = parse_path(path);
  if (!parsed.error.empty()) return nullptr;
  const Json* cur = &root;
  for (const auto& tok : parsed.tokens) {
    if (const auto* key = std::get_if<std::string>(&tok)) {
      if (cur->is_object()) {
        auto it = cur->find(*key);
        if (it == cur->end()) return nullptr;
        cur = &*it;
        continue;
      }
      if (!cur->is_array() || key->empty() || key->size() > 9 ||
          key->find_first_not_of("0123456789") != std::string::npos)
        return nullptr;
      size_t idx = std::stoul(*key);
      if (idx >= cur->size()) return nullptr;
      cur = &(*cur)[idx];
      continue;
    }
    long idx = std::get<long>(tok);
    if (!cur->is_array()) return nullptr;
    long n = static_cast<long>(cur->size());
    if (idx < 0) idx += n;
    if (idx < 0 || idx >= n) return nullptr;
    cur = &(*cur)[static_cast<size_t>(idx)];
  }
  return cur;
}

}  // namespace runner
