#include "composite_references.h"

#include "util/ascii.h"

namespace fake_org::data {

namespace {

DataError invalid_reference(std::string_view expression, std::string_view ref) {
  return data_error(code::kProcessingHalted,
                    "Invalid reference specified. No value for " + std::string(expression) +
                        " found in " + std::string(ref) + ". Provided referenceId ('" +
                        std::string(ref) +
                        "') must name an earlier subrequest that succeeded, and the path a "
                        "value of its result.");
}

// The member `name` of an object: exact, else ignoring ASCII case (the
// platform's field names are case-insensitive; "id" of a save result too).
const nlohmann::ordered_json* member(const nlohmann::ordered_json& object, std::string_view name) {
  if (!object.is_object()) return nullptr;
  if (auto it = object.find(std::string(name)); it != object.end()) return &*it;
  for (auto it = object.begin(); it != object.end(); ++it)
    if (iequals(it.key(), name)) return &*it;
  return nullptr;
}

// The value `expression` ("refId.records[0].Id") names, or null.
const nlohmann::ordered_json* find_referenced(std::string_view expression,
                                              const ReferenceResults& done, std::string& ref) {
  size_t i = 0;
  while (i < expression.size() && expression[i] != '.' && expression[i] != '[') ++i;
  ref = std::string(expression.substr(0, i));
  auto found = done.find(ref);
  if (found == done.end()) return nullptr;
  const nlohmann::ordered_json* at = &found->second;
  while (i < expression.size() && at) {
    if (expression[i] == '.') {
      size_t j = i + 1;
      while (j < expression.size() && expression[j] != '.' && expression[j] != '[') ++j;
      at = member(*at, expression.substr(i + 1, j - i - 1));
      i = j;
    } else {  // [n]
      const size_t close = expression.find(']', i);
      if (close == std::string_view::npos || close == i + 1 || close - i > 10) return nullptr;
      size_t n = 0;
      for (char c : expression.substr(i + 1, close - i - 1)) {
        if (c < '0' || c > '9') return nullptr;
        n = n * 10 + static_cast<size_t>(c - '0');
      }
      at = at->is_array() && n < at->size() ? &(*at)[n] : nullptr;
      i = close + 1;
    }
  }
  return at;
}

// The scalar a reference names, as JSON (a string, number or boolean).
DataResult<nlohmann::ordered_json> value_of(std::string_view expression,
                                            const ReferenceResults& done) {
  std::string ref;
  const nlohmann::ordered_json* v = find_referenced(expression, done, ref);
  if (!v || !(v->is_string() || v->is_number() || v->is_boolean()))
    return invalid_reference(expression, ref);
  return *v;
}

std::string as_text(const nlohmann::ordered_json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// The @{...} that is the whole of `text`, or empty.
std::string_view whole_reference(std::string_view text) {
  if (text.size() < 4 || text.substr(0, 2) != "@{" || text.back() != '}') return {};
  std::string_view inner = text.substr(2, text.size() - 3);
  return inner.find('}') == std::string_view::npos ? inner : std::string_view();
}

DataResult<nlohmann::json> resolve_value(const nlohmann::json& v, const ReferenceResults& done) {
  if (v.is_string()) {
    const std::string& text = v.get_ref<const std::string&>();
    if (std::string_view inner = whole_reference(text); !inner.empty()) {
      auto value = value_of(inner, done);
      if (!value.ok()) return value.errors();
      return nlohmann::json::parse(value->dump());
    }
    auto resolved = resolve_text(text, done);
    if (!resolved.ok()) return resolved.errors();
    return nlohmann::json(std::move(*resolved));
  }
  if (!v.is_structured()) return v;
  nlohmann::json out = v.is_object() ? nlohmann::json::object() : nlohmann::json::array();
  for (auto it = v.begin(); it != v.end(); ++it) {
    auto item = resolve_value(*it, done);  // bodies nest at most kMaxJsonDepth levels
    if (!item.ok()) return item.errors();
    if (v.is_object())
      out[it.key()] = std::move(*item);
    else
      out.push_back(std::move(*item));
  }
  return out;
}

}  // namespace

DataResult<std::string> resolve_text(std::string_view text, const ReferenceResults& done) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const size_t at = text.find("@{", i);
    const size_t close = at == std::string_view::npos ? at : text.find('}', at + 2);
    if (close == std::string_view::npos) {
      out += text.substr(i);
      break;
    }
    out += text.substr(i, at - i);
    auto value = value_of(text.substr(at + 2, close - at - 2), done);
    if (!value.ok()) return value.errors();
    out += as_text(*value);
    i = close + 1;
  }
  return out;
}

DataResult<nlohmann::json> resolve_body(const nlohmann::json& body, const ReferenceResults& done) {
  return resolve_value(body, done);
}

}  // namespace fake_org::data
