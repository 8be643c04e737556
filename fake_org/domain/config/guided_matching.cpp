#include "guided_matching.h"
#include "util/json_text.h"

#include <regex>

namespace fake_org {

nlohmann::json value_at_path(const nlohmann::json& body, std::string_view dotted) {
  const nlohmann::json* cur = &body;
  size_t i = 0;
  while (i <= dotted.size()) {
    size_t j = dotted.find('.', i);
    if (j == std::string_view::npos) j = dotted.size();
    std::string key(dotted.substr(i, j - i));
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(key);
    if (it == cur->end()) return nullptr;
    cur = &*it;
    i = j + 1;
  }
  return *cur;
}

namespace {
std::optional<double> as_number(const nlohmann::json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    try {
      size_t used = 0;
      double d = std::stod(v.get<std::string>(), &used);
      if (used == v.get<std::string>().size()) return d;
    } catch (...) {
    }
  }
  return std::nullopt;
}

std::string text(const nlohmann::json& v) {
  return v.is_string() ? v.get<std::string>() : text::json_text(v);
}

bool holds(const MatchingRule& rule, const nlohmann::json& value) {
  using C = MatchingRule::Condition;
  bool missing = value.is_null() || (value.is_string() && value.get<std::string>().empty());
  switch (rule.condition) {
    case C::kMissing:
      return missing;
    case C::kEquals:
      return !missing && text(value) == text(rule.value);
    case C::kGreaterThan:
    case C::kLessThan: {
      auto a = as_number(value), b = as_number(rule.value);
      if (!a || !b) return false;
      return rule.condition == C::kGreaterThan ? *a > *b : *a < *b;
    }
    case C::kMatches: {
      if (missing) return false;
      try {
        return std::regex_search(text(value), std::regex(text(rule.value)));
      } catch (const std::regex_error&) {
        return false;  // the fixture loader validates patterns; never fail a payment on one
      }
    }
  }
  return false;
}

std::string describe(const MatchingRule& rule) {
  using C = MatchingRule::Condition;
  switch (rule.condition) {
    case C::kMissing:
      return rule.path + " is missing";
    case C::kEquals:
      return rule.path + " equals " + text(rule.value);
    case C::kGreaterThan:
      return rule.path + " is greater than " + text(rule.value);
    case C::kLessThan:
      return rule.path + " is less than " + text(rule.value);
    case C::kMatches:
      return rule.path + " matches " + text(rule.value);
  }
  return rule.path;
}
}  // namespace

std::vector<RuleHit> evaluate_rules(const ProcessingTypeDef& type, const nlohmann::json& request) {
  std::vector<RuleHit> hits;
  for (const auto& rule : type.rules) {
    if (!holds(rule, value_at_path(request, rule.path))) continue;
    std::string reason = rule.reason.empty() ? describe(rule) : rule.reason;
    if (!rule.name.empty()) reason = rule.name + ": " + reason;
    hits.push_back({rule.outcome, reason});
  }
  return hits;
}

}  // namespace fake_org
