#include "commands/record/yaml_emit.h"

#include <regex>

#include <yaml-cpp/yaml.h>

namespace runner::record {
namespace {

using OJson = nlohmann::ordered_json;

// Plain scalars YAML (core schema, and yaml-cpp's 1.1 booleans) would not read as text.
bool needs_quotes(const std::string& s) {
  if (s.empty()) return true;
  static const std::regex special(
      "^(~|null|Null|NULL|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|"
      "OFF|y|Y|n|N)$");
  static const std::regex number(
      "^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$|^0x[0-9a-fA-F]+$|^0o[0-7]+$|^[-+]?"
      "\\.(inf|Inf|INF)$|^\\.(nan|NaN|NAN)$");
  return std::regex_match(s, special) || std::regex_match(s, number) || s.front() == ' ' ||
         s.back() == ' ' || s.find('\n') != std::string::npos;
}

bool scalar(const OJson& v) {
  return !v.is_object() && !v.is_array();
}

bool is_matcher(const OJson& v) {
  if (!v.is_object() || v.empty()) return false;
  for (auto it = v.begin(); it != v.end(); ++it)
    if (it.key().empty() || it.key()[0] != '$' || !scalar(it.value())) return false;
  return true;
}

void emit(YAML::Emitter& out, const OJson& v) {
  if (v.is_object()) {
    out << (is_matcher(v) || v.empty() ? YAML::Flow : YAML::Block) << YAML::BeginMap;
    for (auto it = v.begin(); it != v.end(); ++it) {
      out << YAML::Key;
      if (needs_quotes(it.key()))
        out << YAML::DoubleQuoted << it.key();
      else
        out << it.key();
      out << YAML::Value;
      emit(out, it.value());
    }
    out << YAML::EndMap;
  } else if (v.is_array()) {
    bool inline_list = v.size() <= 8;
    for (const auto& item : v) inline_list = inline_list && scalar(item);
    out << (inline_list ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
    for (const auto& item : v) emit(out, item);
    out << YAML::EndSeq;
  } else if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (needs_quotes(s))
      out << YAML::DoubleQuoted << s;
    else
      out << s;
  } else if (v.is_null()) {
    out << YAML::Null;
  } else if (v.is_boolean()) {
    out << v.get<bool>();
  } else {
    // JSON's own text for numbers keeps 10.5 as 10.5 and integers exact.
    out << v.dump();
  }
}

}  // namespace

std::string to_yaml(const OJson& doc) {
  YAML::Emitter out;
  out.SetIndent(2);
  out.SetSeqFormat(YAML::Block);
  emit(out, doc);
  return std::string(out.c_str()) + "\n";
}

}  // namespace runner::record
