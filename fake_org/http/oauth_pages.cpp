#include "http/oauth_pages.h"

namespace fake_org::http {

namespace {

constexpr const char* kStyle =
    "body{font-family:sans-serif;background:#f3f3f3;margin:0}"
    "main{max-width:28rem;margin:4rem auto;background:#fff;padding:2rem;"
    "border-radius:.5rem;box-shadow:0 1px 4px rgba(0,0,0,.15)}"
    "h1{font-size:1.25rem}.org{color:#555}.sandbox{color:#a15c00;font-weight:bold}"
    "button{font-size:1rem;padding:.5rem 1.5rem;margin-right:.5rem}"
    "code{background:#eee;padding:0 .25rem}";

std::string page(std::string_view title, const std::string& body) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  out += "<title>" + html_escape(title) + "</title><style>" + kStyle + "</style></head>\n";
  out += "<body><main>\n" + body + "</main></body></html>\n";
  return out;
}

std::string hidden(std::string_view name, std::string_view value) {
  return "<input type=\"hidden\" name=\"" + html_escape(name) + "\" value=\"" + html_escape(value) +
         "\">\n";
}

}  // namespace

std::string render_approval_page(const ApprovalPage& p) {
  std::string body;
  body += "<p class=\"org\">" + html_escape(p.org_name);
  if (p.sandbox) body += " <span class=\"sandbox\">(sandbox)</span>";
  body += "</p>\n";
  body += "<h1>Allow access?</h1>\n";
  body += "<p><strong>" + html_escape(p.app_name) + "</strong> is asking to access the org.</p>\n";
  body += "<p>Scope: <code>" + html_escape(p.scope) + "</code> (full access)</p>\n";
  body += "<form method=\"post\" action=\"" + html_escape(p.action) + "\">\n";
  body += hidden("response_type", p.response_type);
  body += hidden("client_id", p.client_id);
  body += hidden("redirect_uri", p.redirect_uri);
  if (!p.state.empty()) body += hidden("state", p.state);
  if (!p.requested_scope.empty()) body += hidden("scope", p.requested_scope);
  if (!p.code_challenge.empty()) {
    body += hidden("code_challenge", p.code_challenge);
    body += hidden("code_challenge_method", p.code_challenge_method);
  }
  body += "<button type=\"submit\" name=\"decision\" value=\"allow\">Allow</button>";
  body += "<button type=\"submit\" name=\"decision\" value=\"deny\">Deny</button>\n";
  body += "</form>\n";
  return page("Allow access?", body);
}

std::string render_error_page(std::string_view error, std::string_view description,
                              std::string_view hint) {
  std::string body = "<h1>Remote access authorization error</h1>\n";
  body += "<p>error=<code>" + html_escape(error) + "</code></p>\n";
  body += "<p>error_description=<code>" + html_escape(description) + "</code></p>\n";
  if (!hint.empty()) body += "<p class=\"hint\">" + html_escape(hint) + "</p>\n";
  return page("Error", body);
}

}  // namespace fake_org::http
