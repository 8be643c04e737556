#pragma once
// `${...}` references in scenario values: scenario variables, captures,
// `${env:NAME}` and built-ins (`${uuid}`, `${today}`, `${today+30d}`, `${now}`,
// `${webhook_url}`, `${api_base}`, `${instance_url}`). `$${` writes a literal `${`.
// A string that is exactly one reference takes the referenced value's JSON
// type, so `Amount: ${amount}` stays a number.
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace runner {

using Json = nlohmann::json;
using Variables = std::map<std::string, Json>;

struct TemplateRef {
  std::string name;
  size_t begin = 0;  // offset of "${"
  size_t end = 0;    // one past "}"
};

struct TemplateScan {
  std::vector<TemplateRef> refs;
  std::string error;  // empty when the text is well formed
};

TemplateScan scan_template(std::string_view text);
// Built-in names (env:NAME and today±N included); not checked against vars.
bool is_builtin_name(std::string_view name);
bool is_variable_name(std::string_view name);

// A reference that is neither defined nor built in, or a malformed template,
// found somewhere inside a value: `pointer` is the JSON pointer of the string.
struct RefIssue {
  std::string pointer;
  std::string message;
};
std::vector<RefIssue> check_references(const Json& value, const std::set<std::string>& defined,
                                       const std::string& pointer = "");

// Runtime sources of built-ins; each may be left empty when not available.
struct Builtins {
  std::function<std::string()> webhook_url;
  std::function<std::string()> api_base;
  std::function<std::string()> instance_url;
  std::function<std::string()> today;  // YYYY-MM-DD, on the org clock where there is one
  std::function<std::string()> now;    // ISO 8601 instant
  std::function<std::optional<std::string>(const std::string&)> env;  // getenv by default
};

class InterpolationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Interpolator {
 public:
  Interpolator(const Variables& vars, const Builtins& builtins)
      : vars_(vars), builtins_(builtins) {}
  // Every string (and object key) inside `value`; throws InterpolationError.
  Json value(const Json& value) const;
  std::string text(const std::string& text) const;
  // The same, each substituted value written by `render` (its text by
  // default): SOQL escapes values so that they cannot end a literal.
  std::string text(const std::string& text,
                   const std::function<std::string(const Json&)>& render) const;

 private:
  Json resolve(const std::string& name) const;
  const Variables& vars_;
  const Builtins& builtins_;
};

// A JSON value as it reads inside text: strings bare, everything else dumped.
std::string to_text(const Json& v);
std::string make_uuid_v4();

}  // namespace runner
