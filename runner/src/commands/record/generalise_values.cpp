// Value by value: what a request value or a response value becomes in the
// scenario. The rules are in docs/record-replay.md ("What is generalised").
#include <algorithm>
#include <cctype>

#include "commands/record/generaliser_state.h"
#include "commands/record/value_kinds.h"
#include "eval/interpolate.h"
#include "util/ascii.h"

namespace runner::record::detail {

std::string regex_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::string("\\^$.|?*+()[]{}/").find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string State::new_name(const std::string& wanted) {
  std::string base;
  for (char c : fake_org::ascii_lower(wanted))
    base += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (base.empty() || !std::isalpha(static_cast<unsigned char>(base[0]))) base = "v_" + base;
  if (is_builtin_name(base)) base += "_v";
  std::string name = base;
  for (int i = 2; names.count(name); ++i) name = base + std::to_string(i);
  names.insert(name);
  return name;
}

std::string State::env_name(const std::string& wanted) {
  std::string base;
  for (char c : wanted)
    base += std::isalnum(static_cast<unsigned char>(c))
                ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                : '_';
  std::string name = base;
  for (int i = 2; std::find(env.begin(), env.end(), name) != env.end(); ++i)
    name = base + "_" + std::to_string(i);
  env.push_back(name);
  return name;
}

std::string State::secret(const std::string& literal, const std::string& env_wanted,
                          SecretMode mode) {
  auto it = secret_of.find(literal);
  if (it != secret_of.end()) return it->second;
  std::string out;
  if (mode == SecretMode::kKeep) {
    out = literal;
  } else if (mode == SecretMode::kMask) {
    out = literal;
    for (size_t i = 4; i + 4 < out.size(); ++i)
      if (std::isalnum(static_cast<unsigned char>(out[i]))) out[i] = 'X';
    masked.insert(out);
    secret_values.push_back(literal);
  } else {
    out = "${env:" + env_name(env_wanted) + "}";
    secret_values.push_back(literal);
  }
  secret_of.emplace(literal, out);
  return out;
}

std::string State::substitute(const std::string& text) {
  for (const auto& card : card_numbers_in(text)) secret(card, "CARD_NUMBER", options.cards);
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '{') out += '$';
  }
  // Longer values first, so an 18-character id is not cut by its 15-character prefix.
  std::vector<std::pair<std::string, std::string>> subst;
  for (const auto& [lit, rep] : secret_of)
    if (lit != rep) subst.emplace_back(lit, rep);
  for (const auto& [value, var] : var_of) subst.emplace_back(value, "${" + var + "}");
  std::sort(subst.begin(), subst.end(),
            [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  for (const auto& [lit, rep] : subst) {
    if (lit.size() < 4) continue;  // too short to be told apart from ordinary text
    for (size_t at = out.find(lit); at != std::string::npos; at = out.find(lit, at + rep.size()))
      out.replace(at, lit.size(), rep);
  }
  return out;
}

OJson request_value(State& st, const std::string& key, const OJson& v) {
  if (v.is_object()) {
    OJson out = OJson::object();
    for (auto it = v.begin(); it != v.end(); ++it)
      out[st.substitute(it.key())] = request_value(st, it.key(), it.value());
    return out;
  }
  if (v.is_array()) {
    OJson out = OJson::array();
    for (const auto& item : v) out.push_back(request_value(st, key, item));
    return out;
  }
  if (!v.is_string()) return v;
  const std::string s = v.get<std::string>();
  if (is_secret_key(key)) return st.secret(s, "ORG_" + key, SecretMode::kEnv);
  if (is_card_number(key, s)) return st.secret(s, "CARD_NUMBER", st.options.cards);
  if (is_account_number(key, s)) {
    const std::string k = fake_org::ascii_lower(key);
    return st.secret(s, k == "iban" || k.empty() ? "IBAN" : "ACCOUNT_NUMBER", st.options.accounts);
  }
  // The client's own idempotency keys are new on every replay.
  if (fake_org::ascii_lower(key).find("idempotency") != std::string::npos &&
      classify(key, s) == ValueKind::kGuid && !st.var_of.count(s)) {
    const std::string name = st.new_name("key");
    st.vars[name] = "${uuid}";
    st.var_of.emplace(s, name);
  }
  return st.substitute(s);
}

namespace {

OJson matcher(ValueKind kind, const std::string& value) {
  std::string re = value_regex(kind, value);
  if (re.empty()) return OJson{{"$type", "string"}};
  return OJson{{"$regex", re}};
}

}  // namespace

Expected expected_value(State& st, size_t step, const std::string& key, const OJson& v) {
  const bool strict = st.options.strict;
  if (v.is_object()) {
    OJson out = OJson::object();
    for (auto it = v.begin(); it != v.end(); ++it) {
      Expected e = expected_value(st, step, it.key(), it.value());
      if (!e.keep) continue;
      // A key that looks like a matcher must be matched literally.
      if (!it.key().empty() && it.key()[0] == '$')
        out[st.substitute(it.key())] = OJson{{"$eq", e.value}};
      else
        out[st.substitute(it.key())] = e.value;
    }
    return {true, out};
  }
  if (v.is_array()) {
    // Arrays match item by item, so every item stays (as its shape at least).
    OJson out = OJson::array();
    for (const auto& item : v) {
      Expected e = expected_value(st, step, key, item);
      out.push_back(e.keep ? e.value : OJson{{"$exists", true}});
    }
    return {true, out};
  }
  if (!v.is_string()) return {true, v};
  const std::string s = v.get<std::string>();
  const ValueKind kind = classify(key, s);
  if (kind == ValueKind::kToken || is_secret_key(key)) {
    // Tokens the org hands out are never written; no replay needs them, as
    // the runner authenticates itself. A request that sends one back later
    // takes it from the environment (the name is listed only if written).
    if (!st.secret_of.count(s)) {
      st.secret_values.push_back(s);
      st.secret_of.emplace(s, "${env:" + st.env_name("ORG_" + key) + "}");
      st.issued.insert(s);
    }
    return {true, OJson{{"$type", "string"}}};
  }
  if (auto sec = st.secret_of.find(s); sec != st.secret_of.end()) {
    // An org's token echoed under another key differs on every replay too.
    if (st.masked.count(sec->second) || st.issued.count(s))
      return {true, OJson{{"$type", "string"}}};
    return {true, sec->second};
  }
  if (auto var = st.var_of.find(s); var != st.var_of.end()) {
    auto site = st.first_seen.find(s);
    if (site != st.first_seen.end() && site->second.step == step && site->second.regex.empty() &&
        site->second.header.empty())
      return {true, matcher(kind, s)};  // captured right here
    return {true, "${" + var->second + "}"};
  }
  if (st.client_strings.count(s)) return {true, st.substitute(s)};
  switch (kind) {
    case ValueKind::kPaymentIntentId:
    case ValueKind::kRecordId:
    case ValueKind::kGuid:
    case ValueKind::kUrl:
    case ValueKind::kUrlWithId:
    case ValueKind::kOpaqueId:
    case ValueKind::kAutoNumber:
      return {true, matcher(kind, s)};
    case ValueKind::kTimestamp:
    case ValueKind::kDate:
      if (strict) return {true, matcher(kind, s)};
      return {};
    case ValueKind::kToken:
    case ValueKind::kPlain:
      break;
  }
  if (is_enum_like(key, s)) return {true, st.substitute(s)};
  // Free text (messages): its presence is what a client relies on.
  if (!strict) return {true, OJson{{"$type", "string"}}};
  std::string text = st.substitute(s);
  if (!generated_values_in(text).empty()) return {true, OJson{{"$type", "string"}}};
  return {true, text};
}

}  // namespace runner::record::detail
