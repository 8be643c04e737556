// The identity service and OpenID Connect UserInfo (oauth_routes.h): the
// token from "Authorization: Bearer" or ?oauth_token=, errors as the
// platform's plain-text codes (docs/decisions.md 52-55).
#include <optional>
#include <string>
#include <string_view>

#include <httplib.h>

#include "auth/identity.h"
#include "domain/core/ids.h"
#include "http/oauth_routes.h"
#include "http/responses.h"
#include "http/router.h"
#include "util/ascii.h"
#include "util/json_text.h"
#include "util/text.h"

namespace fake_org::http {

namespace {

constexpr const char* kTextType = "text/plain;charset=UTF-8";
constexpr const char* kIdentityFormType = "application/x-www-form-urlencoded";

// The platform's answer (its code as the body) and the fake's explanation
// (the X-Fake-Org-Reason header).
struct Refusal {
  int status;
  std::string code;
  std::string why;
};

void refuse(httplib::Response& res, const Refusal& r) {
  // The explanation may quote the path: printable ASCII only in a header.
  std::string why = r.why;
  for (char& ch : why) {
    if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) > 0x7e) ch = '?';
  }
  res.status = r.status;
  res.set_header("Cache-Control", "no-store");
  res.set_header("X-Fake-Org-Reason", why);
  res.set_content(r.code, kTextType);
}

// A parameter from the query string or, for a form POST, the body.
std::string param(const httplib::Request& req, const std::string& name) {
  if (req.has_param(name.c_str())) return req.get_param_value(name.c_str());
  if (req.body.empty() ||
      ascii_lower(req.get_header_value("Content-Type")).rfind(kIdentityFormType, 0) != 0) {
    return std::string();
  }
  httplib::Params form;
  httplib::detail::parse_query_text(req.body, form);
  auto it = form.find(name);
  return it == form.end() ? std::string() : it->second;
}

// The token's grant, or the refusal: Missing_OAuth_Token without a header or
// oauth_token, Bad_OAuth_Token for one the org does not know (any longer).
std::optional<TokenInfo> read_token(const OAuthContext& ctx, const httplib::Request& req,
                                    std::optional<Refusal>& refusal) {
  const bool has_header = !text::trim(req.get_header_value("Authorization")).empty();
  std::optional<TokenInfo> info;
  if (has_header) {
    info = authenticate_request(req, *ctx.tokens);
  } else if (std::string token = param(req, "oauth_token"); !token.empty()) {
    info = ctx.tokens->authenticate(token);
  } else {
    refusal = Refusal{403, "Missing_OAuth_Token",
                      "send the access token as 'Authorization: Bearer <token>' or as the "
                      "oauth_token parameter"};
    return std::nullopt;
  }
  if (!info) {
    refusal = Refusal{403, "Bad_OAuth_Token",
                      "the access token is unknown, revoked or expired (tokens live " +
                          std::to_string(ctx.config->auth.token_lifetime.count() / 1000) +
                          " s on the org clock); get a new one at " + ctx.instance_url(req) +
                          "/services/oauth2/token"};
  }
  return info;
}

// The token's user: the fixture's users, or the integration user of an org
// configured without any.
const UserDef* token_user(const OAuthContext& ctx, const TokenInfo& token) {
  const AuthSettings& auth = ctx.config->auth;
  if (const UserDef* u = auth.user_by_id(token.user_id)) return u;
  const UserDef& integration = auth.integration_user();
  return integration.id == token.user_id ? &integration : nullptr;
}

// At a login host of the other kind of org (production vs sandbox) the org's
// tokens are unknown, as on the platform.
std::optional<Refusal> wrong_host(const OAuthContext& ctx, std::optional<bool> sandbox_host,
                                  const httplib::Request& req) {
  const bool sandbox_org = ctx.config->org.sandbox;
  if (!sandbox_host || *sandbox_host == sandbox_org) return std::nullopt;
  const std::string rest = req.path.substr(login_host_path(*sandbox_host).size());
  return Refusal{403, "Bad_OAuth_Token",
                 std::string("this org is a ") + (sandbox_org ? "sandbox" : "production") +
                     " org; send this request to " + ctx.instance_url(req) +
                     login_host_path(sandbox_org) + rest};
}

IdentitySite site_of(const OAuthContext& ctx, const httplib::Request& req, const TokenInfo& token) {
  IdentitySite site;
  site.instance_url = ctx.instance_url(req);
  site.org_id = to_id18(ctx.config->org.org_id).value_or(ctx.config->org.org_id);
  site.sandbox = ctx.config->org.sandbox;
  site.last_modified = token.issued_at;
  return site;
}

// Whether the path's ids name the token's org and user; the refusal if not.
std::optional<Refusal> check_ids(const OAuthContext& ctx, const Call& c, const UserDef& user) {
  const std::string org_param = c.params.at("orgId");
  const std::string user_param = c.params.at("userId");
  const std::optional<std::string> org = to_id18(org_param);
  const std::optional<std::string> user_id = to_id18(user_param);
  const std::string own_org = to_id18(ctx.config->org.org_id).value_or(ctx.config->org.org_id);
  if (!org || !user_id) {
    return Refusal{404, "Bad_Id",
                   "'" + (org ? user_param : org_param) +
                       "' is not a 15- or 18-character id (an 18-character id's last three "
                       "characters must match its first 15)"};
  }
  if (*org != own_org) {
    return Refusal{403, "Wrong_Org",
                   "the token belongs to org " + own_org + ", not " + org_param +
                       "; use the token response's id"};
  }
  if (*user_id == user.id) return std::nullopt;
  const AuthSettings& auth = ctx.config->auth;
  if (auth.user_by_id(*user_id)) {
    return Refusal{404, "No_Access",
                   "the token acts as user " + user.id + ", not " + user_param +
                       "; a token reads its own user's identity only"};
  }
  return Refusal{404, "Bad_Id", "the org has no user " + user_param};
}

// format (json only) and version; the refusal for anything else.
// `newest`: the org's newest API version, what version=latest names.
std::optional<Refusal> read_options(const httplib::Request& req, IdentitySite& site,
                                    const std::string& newest) {
  const std::string format = ascii_lower(param(req, "format"));
  if (!format.empty() && format != "json") {
    return Refusal{406, "Unsupported_Format",
                   "fake-org answers the identity service as JSON only; send format=json or no "
                   "format"};
  }
  const std::string version = param(req, "version");
  if (version.empty()) return std::nullopt;
  site.version = version == "latest" ? newest : api_version(version);
  if (site.version.empty()) {
    return Refusal{406, "Invalid_Version",
                   "version is an API version such as " + std::string(kLatestApiVersion) +
                       " or latest, not '" + version + "'"};
  }
  return std::nullopt;
}

void send_body(httplib::Response& res, const nlohmann::ordered_json& body) {
  res.status = 200;
  res.set_header("Cache-Control", "no-store");
  res.set_content(text::json_text(body), kJson);
}

void handle_identity(const OAuthContext& ctx, std::optional<bool> sandbox_host, Call& c) {
  std::optional<Refusal> refusal = wrong_host(ctx, sandbox_host, c.req);
  std::optional<TokenInfo> token;
  if (!refusal) token = read_token(ctx, c.req, refusal);
  const UserDef* user = token ? token_user(ctx, *token) : nullptr;
  if (token && !user) refusal = Refusal{404, "Bad_Id", "the token's user is not in the fixture"};
  if (!refusal && user) refusal = check_ids(ctx, c, *user);
  IdentitySite site;
  if (!refusal && token) {
    site = site_of(ctx, c.req, *token);
    refusal = read_options(c.req, site, ctx.config->org.api_version);
  }
  if (refusal) return refuse(c.res, *refusal);
  send_body(c.res, identity_body(site, *user));
}

void handle_userinfo(const OAuthContext& ctx, std::optional<bool> sandbox_host, Call& c) {
  std::optional<Refusal> refusal = wrong_host(ctx, sandbox_host, c.req);
  std::optional<TokenInfo> token;
  if (!refusal) token = read_token(ctx, c.req, refusal);
  const UserDef* user = token ? token_user(ctx, *token) : nullptr;
  if (token && !user) refusal = Refusal{403, "Bad_OAuth_Token", "the token's user is gone"};
  if (refusal) return refuse(c.res, *refusal);
  send_body(c.res, userinfo_body(site_of(ctx, c.req, *token), *user));
}

}  // namespace

void add_identity_handlers(Handlers& handlers, const OAuthContext& ctx) {
  struct Host {
    const char* prefix;  // of the operationIds
    std::optional<bool> sandbox_host;
  };
  for (const Host& h : {Host{"", std::nullopt}, Host{"Login", false}, Host{"SandboxLogin", true}}) {
    auto identity = [ctx, h](Call& c) { handle_identity(ctx, h.sandbox_host, c); };
    auto userinfo = [ctx, h](Call& c) { handle_userinfo(ctx, h.sandbox_host, c); };
    for (const char* method : {"get", "post"}) {
      handlers.on(std::string(method) + h.prefix + "Identity", identity);
      handlers.on(std::string(method) + h.prefix + "UserInfo", userinfo);
    }
  }
}

}  // namespace fake_org::http
