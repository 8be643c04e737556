#include "net/curl.h"

namespace runner {
namespace {

// Single-quoted pieces joined with "$TOKEN" in double quotes: 'a'"$TOKEN"'b'.
std::string quote_masking(const std::string& s, const std::string& token) {
  if (token.empty()) return shell_quote(s);
  std::string out;
  size_t at = 0;
  for (size_t p = s.find(token); p != std::string::npos; p = s.find(token, at)) {
    if (p > at) out += shell_quote(s.substr(at, p - at));
    out += "\"$TOKEN\"";
    at = p + token.size();
  }
  if (at < s.size() || out.empty()) out += shell_quote(s.substr(at));
  return out;
}

}  // namespace

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string env_shell_word(const std::string& text) {
  std::string out = "\"";
  auto literal = [&out](char c) {
    if (c == '"' || c == '\\' || c == '$' || c == '`') out += '\\';
    out += c;
  };
  for (size_t i = 0; i < text.size();) {
    if (text.compare(i, 3, "$${") == 0) {
      literal('$');
      literal('{');
      i += 3;
      continue;
    }
    if (text.compare(i, 6, "${env:") == 0) {
      const size_t close = text.find('}', i);
      if (close != std::string::npos) {
        out += "${" + text.substr(i + 6, close - i - 6) + "}";
        i = close + 1;
        continue;
      }
    }
    literal(text[i++]);
  }
  return out + "\"";
}

std::string token_line(const std::string& token_url, const std::string& grant_type,
                       const std::vector<std::string>& fields, const std::string& ca_file) {
  std::string line = "TOKEN=$(curl -sS";
  if (!ca_file.empty()) line += " --cacert " + shell_quote(ca_file);
  line += " " + shell_quote(token_url) + " -d grant_type=" + grant_type;
  for (const auto& f : fields) line += " --data-urlencode " + f;
  // The access_token member of the JSON answer, without needing jq.
  return line + " | sed -n 's/.*\"access_token\": *\"\\([^\"]*\\)\".*/\\1/p')\n";
}

std::string to_curl(const HttpRequest& request, const std::string& token,
                    const std::string& ca_file) {
  std::string cmd = "curl -sS -i";
  if (!ca_file.empty()) cmd += " --cacert " + shell_quote(ca_file);
  if (request.method != "GET" || !request.body.empty()) cmd += " -X " + request.method;
  cmd += " " + shell_quote(request.url);
  bool has_type = false;
  for (const auto& [k, v] : request.headers) {
    if (iequals(k, "Content-Type")) has_type = true;
    cmd += " -H " + quote_masking(k + ": " + v, token);
  }
  if (!request.body.empty()) {
    if (!has_type) cmd += " -H 'Content-Type: application/json'";
    cmd += " --data-raw " + quote_masking(request.body, token);
  }
  return cmd;
}

std::string with_url_variable(const std::string& command, const std::string& url,
                              const std::string& variable) {
  const std::string from = "'" + url;
  const std::string to = "\"$" + variable + "\"'";
  std::string out;
  size_t at = 0;
  for (size_t p = command.find(from); p != std::string::npos; p = command.find(from, at)) {
    out.append(command, at, p - at);
    out += to;
    at = p + from.size();
  }
  return out + command.substr(at);
}

}  // namespace runner
