#include "eval/soql_text.h"

namespace runner {

std::string soql_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '\'':
        out += "\\'";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string soql_text(const Interpolator& in, const std::string& soql) {
  return in.text(soql, [](const Json& v) { return soql_escape(to_text(v)); });
}

}  // namespace runner
