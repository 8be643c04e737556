#pragma once
// HTML of the web server flow: the approval page and the error page shown
// when the authorize request cannot be trusted to redirect. Self-contained
// (inline style, no scripts) so a browser and a plain HTTP client alike can
// drive it: the page is one form POSTing hidden fields and a `decision` of
// "allow" or "deny".
#include <string>
#include <string_view>

#include "http/html.h"

namespace fake_org::http {

struct ApprovalPage {
  std::string org_name;
  bool sandbox = false;
  std::string app_name;
  std::string scope;  // granted scope, shown to the user
  // Echoed back in hidden fields.
  std::string response_type;
  std::string client_id;
  std::string redirect_uri;
  std::string state;
  std::string requested_scope;
  // PKCE (RFC 7636); empty when the request used none.
  std::string code_challenge;
  std::string code_challenge_method;
  // Where the form posts: the authorize path the page was served from (the
  // instance's or a login host's).
  std::string action = "/services/oauth2/authorize";
};

std::string render_approval_page(const ApprovalPage& page);
// `hint`: what a developer needs to fix it (the platform's page has none;
// a local fake can say which redirect URIs it accepts). Omitted when empty.
std::string render_error_page(std::string_view error, std::string_view description,
                              std::string_view hint = {});

}  // namespace fake_org::http
