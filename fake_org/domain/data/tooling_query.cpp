#include "tooling_query.h"

#include <array>
#include <cctype>
#include <string>

#include "util/ascii.h"

namespace fake_org::data {

namespace {

// The Tooling API objects a production org without sandboxes answers with
// no rows.
constexpr std::array<std::string_view, 2> kEmptyToolingObjects = {"SandboxProcess", "SandboxInfo"};

bool tooling_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The object after the outermost FROM (outside quotes and parentheses), or
// "" when there is none.
std::string tooling_from_object(std::string_view q) {
  int depth = 0;
  for (size_t i = 0; i < q.size(); ++i) {
    const char c = q[i];
    if (c == '\'') {
      for (++i; i < q.size() && q[i] != '\''; ++i)
        if (q[i] == '\\') ++i;
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')') --depth;
    const bool starts_word = i == 0 || !tooling_word_char(q[i - 1]);
    if (depth != 0 || !starts_word || q.size() - i < 5 || !iequals(q.substr(i, 4), "from") ||
        tooling_word_char(q[i + 4]))
      continue;
    size_t b = i + 4;
    while (b < q.size() && std::isspace(static_cast<unsigned char>(q[b]))) ++b;
    size_t e = b;
    while (e < q.size() && tooling_word_char(q[e])) ++e;
    return std::string(q.substr(b, e - b));
  }
  return "";
}

}  // namespace

DataResult<nlohmann::ordered_json> tooling_query(std::string_view soql) {
  const std::string object = tooling_from_object(soql);
  if (object.empty())
    return data_error(code::kMalformedQuery, "unexpected token: the query has no FROM clause");
  for (std::string_view known : kEmptyToolingObjects) {
    if (!iequals(object, known)) continue;
    return nlohmann::ordered_json{{"size", 0},
                                  {"totalSize", 0},
                                  {"done", true},
                                  {"queryLocator", nullptr},
                                  {"entityTypeName", known},
                                  {"records", nlohmann::ordered_json::array()}};
  }
  return data_error(code::kInvalidType,
                    "sObject type '" + object +
                        "' is not supported. This org answers the Tooling API's SandboxProcess "
                        "and SandboxInfo queries only (no rows: a production org without "
                        "sandboxes).");
}

}  // namespace fake_org::data
