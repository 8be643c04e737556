#pragma once
// Known, documented differences between two orgs that parity accepts. A YAML
// file:
//
//   allow:
//     - reason: this org answers 400 for invalid data   # required: why it is acceptable
//       kind: status              # optional: status | field | type | enum | step
//       scenario: "^errors/"      # optional: regex searched in the scenario's file and name
//       step: "POST /PaymentIntent"   # optional: regex searched in the step's name
//       path: /Errors/*/error_code    # optional: the JSON pointer, exactly (* = array items)
//       a: "422"                  # optional: what the first target had, exactly
//       b: "400"                  # optional: what the second target had
//
// An entry allows every difference that all its given keys match.
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands/parity/difference.h"

namespace runner::parity {

class AllowListError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct AllowEntry {
  std::string reason;
  std::string kind;
  std::optional<std::regex> scenario;
  std::optional<std::regex> step;
  std::string path;
  std::optional<std::string> a, b;
  bool matches(const Difference& d) const;
};

class AllowList {
 public:
  // Throws AllowListError naming file:line:col.
  static AllowList load_file(const std::string& path);
  static AllowList load_text(const std::string& text, const std::string& file);
  // Marks the differences it allows (sets allowed and reason).
  void apply(std::vector<Difference>& diffs) const;
  size_t size() const { return entries_.size(); }

 private:
  std::vector<AllowEntry> entries_;
};

}  // namespace runner::parity
