#pragma once
// OAuth 2.0 endpoints of the org (spec 5), as the CRM platform serves them:
//   GET  /services/oauth2/authorize  web server flow: approval page
//   POST /services/oauth2/authorize  the page's form: 302 to redirect_uri
//   POST /services/oauth2/token      authorization_code, refresh_token,
//                                    client_credentials, password and JWT
//                                    bearer grants
//   POST /services/oauth2/revoke     (GET with ?token= too, as the platform)
//   GET  /id/{orgId}/{userId}        the identity URL (POST too)
//   GET  /services/oauth2/userinfo   OpenID Connect UserInfo (POST too)
// Each is also served under the login hosts' prefixes below.
//
// Hosts: the real platform authorizes at login.salesforce.com for production
// orgs and at test.salesforce.com for sandboxes (the spec's {auth_url} and
// {sandbox_auth_url}), and issues tokens at the org's instance URL. The fake
// serves both login hosts locally as path prefixes of its own address:
//   {instance}/login/services/oauth2/authorize   production ({auth_url})
//   {instance}/test/services/oauth2/authorize    sandbox ({sandbox_auth_url})
// The fixture's org.sandbox says which kind the org is; the other login host
// answers as the platform does for a client it does not know there
// (invalid_client_id; the identity service: Bad_OAuth_Token), and the token
// response's `id` names the org's own login host. {instance}/services/oauth2/authorize (My Domain
// style) serves either kind.
//
// Token endpoint parameters come from an application/x-www-form-urlencoded
// body (or, when there is no body, the query string, which the platform also
// accepts); client credentials may come as HTTP Basic (RFC 6749 2.3.1). No
// token, code or secret is ever logged.
#include <functional>
#include <optional>
#include <string>

#include <httplib.h>

#include "auth/token_store.h"
#include "domain/config/org_config.h"
#include "http/router.h"

namespace fake_org::http {

// The oauth area's rows also hold GET /services/data (the data API's
// versions), which the platform serves without a token.
struct OAuthContext {
  const OrgConfig* config;  // org name, org id, sandbox flag, auth settings
  TokenStore* tokens;
  // scheme://host:port the client reached, for instance_url and id.
  std::function<std::string(const httplib::Request&)> instance_url;
  // The request's Host is a name of this server (admin_guard.h's
  // names_this_server); null: loopback names only.
  std::function<bool(const httplib::Request&)> names_this_server;
};

// The handlers of the oauth area of contracts/routes.yaml, by operationId.
void add_oauth_handlers(Handlers& handlers, OAuthContext ctx);
// Its identity service and UserInfo (identity_routes.cpp), which
// add_oauth_handlers adds.
void add_identity_handlers(Handlers& handlers, const OAuthContext& ctx);

// The oauth area alone on a server of one's own (the OAuth tests' server,
// which adds routes besides); fake-org's Server mounts it with every other area.
void register_oauth_routes(httplib::Server& server, OAuthContext ctx);

// "/login" for a production org, "/test" for a sandbox: the local login host.
std::string login_host_path(bool sandbox);

// The grant behind "Authorization: Bearer <token>" (scheme case-insensitive;
// the platform's "OAuth <token>" is accepted too); nullopt when the header is
// missing or malformed or the token is unknown, revoked or expired.
std::optional<TokenInfo> authenticate_request(const httplib::Request& req, TokenStore& tokens);

// The body of a 401 for any failed authenticate_request.
inline constexpr const char* kInvalidSessionBody =
    R"([{"message":"Session expired or invalid","errorCode":"INVALID_SESSION_ID"}])";

}  // namespace fake_org::http
