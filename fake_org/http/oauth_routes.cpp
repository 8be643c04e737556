#include "http/oauth_routes.h"

#include "util/ascii.h"

#include <cctype>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "domain/config/data_versions.h"
#include "domain/core/ids.h"
#include "http/admin_guard.h"
#include "http/dispatch.h"
#include "http/oauth_pages.h"
#include "http/request_log.h"
#include "http/responses.h"
#include "http/router.h"
#include "http/routes.h"
#include "util/crypto.h"
#include "util/json_text.h"
#include "util/text.h"

namespace fake_org::http {

namespace {

using Form = std::unordered_map<std::string, std::string>;

constexpr const char* kJsonType = "application/json";
constexpr const char* kHtmlType = "text/html; charset=utf-8";
constexpr const char* kFormType = "application/x-www-form-urlencoded";

using text::trim;

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// RFC 3986 unreserved characters pass; everything else is percent-encoded.
std::string url_encode(std::string_view s) {
  static constexpr const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// Parameters may appear once each (RFC 6749 3.1, 3.2); the name of a repeated
// one comes back in `duplicate`.
Form parse_form(std::string_view body, std::string& duplicate) {
  Form form;
  while (!body.empty()) {
    size_t amp = body.find('&');
    std::string_view pair = body.substr(0, amp);
    body = amp == std::string_view::npos ? std::string_view() : body.substr(amp + 1);
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    std::string name = httplib::detail::decode_url(std::string(pair.substr(0, eq)), true);
    std::string value = eq == std::string_view::npos
                            ? std::string()
                            : httplib::detail::decode_url(std::string(pair.substr(eq + 1)), true);
    if (!form.emplace(std::move(name), std::move(value)).second && duplicate.empty()) {
      duplicate = pair.substr(0, eq);
    }
  }
  return form;
}

// The query string's parameters, read from the raw target rather than
// req.params: httplib drops a name=value pair repeated verbatim, so a
// parameter sent twice with the same value would pass unnoticed.
Form query_form(const httplib::Request& req, std::string& duplicate) {
  size_t q = req.target.find('?');
  return q == std::string::npos ? Form()
                                : parse_form(std::string_view(req.target).substr(q + 1), duplicate);
}

// An authorize request's parameters: the query string and, for the page's
// form POST, the form body too (a name in both is a duplicate).
Form authorize_form(const httplib::Request& req, std::string& duplicate) {
  Form form = query_form(req, duplicate);
  if (req.body.empty() ||
      !starts_with(ascii_lower(req.get_header_value("Content-Type")), kFormType)) {
    return form;
  }
  for (auto& [name, value] : parse_form(req.body, duplicate)) {
    if (!form.emplace(name, std::move(value)).second && duplicate.empty()) duplicate = name;
  }
  return form;
}

std::string get(const Form& form, const std::string& name) {
  auto it = form.find(name);
  return it == form.end() ? std::string() : it->second;
}

void no_cache(httplib::Response& res) {
  res.set_header("Cache-Control", "no-store");
  res.set_header("Pragma", "no-cache");
}

void json_error(httplib::Response& res, std::string_view error, std::string_view description) {
  res.status = 400;
  nlohmann::ordered_json body;
  body["error"] = error;
  body["error_description"] = description;
  res.set_content(text::json_text(body), kJsonType);
}

void json_error(httplib::Response& res, const OAuthError& e) {
  json_error(res, e.error, e.description);
}

void html_error(httplib::Response& res, std::string_view error, std::string_view description,
                std::string_view hint = {}) {
  no_cache(res);
  res.status = 400;
  res.set_content(render_error_page(error, description, hint), kHtmlType);
}

// The parameters of a token or revoke request, or nullopt after answering
// invalid_request.
std::optional<Form> read_form(const httplib::Request& req, httplib::Response& res) {
  std::string duplicate;
  Form form;
  if (!req.body.empty()) {
    if (!starts_with(ascii_lower(req.get_header_value("Content-Type")), kFormType)) {
      json_error(res, "invalid_request", "request body must be application/x-www-form-urlencoded");
      return std::nullopt;
    }
    form = parse_form(req.body, duplicate);
  } else {
    form = query_form(req, duplicate);
  }
  if (!duplicate.empty()) {
    json_error(res, "invalid_request", "parameter sent more than once: " + duplicate);
    return std::nullopt;
  }
  return form;
}

// Client credentials from the body, or from HTTP Basic: the form-urlencoded
// id and secret joined by ':' and base64-encoded (RFC 6749 2.3.1). Answers
// and returns nullopt when they conflict or cannot be read.
std::optional<ClientCredentials> read_client(const httplib::Request& req, const Form& form,
                                             httplib::Response& res) {
  ClientCredentials creds{get(form, "client_id"), get(form, "client_secret")};
  const std::string raw_header = req.get_header_value("Authorization");
  std::string_view header = trim(raw_header);
  size_t space = header.find(' ');
  if (header.empty() || ascii_lower(header.substr(0, space)) != "basic") return creds;
  if (form.count("client_secret")) {
    json_error(res, "invalid_request", "use one client authentication method, not two");
    return std::nullopt;
  }
  std::optional<std::string> decoded = space == std::string_view::npos
                                           ? std::nullopt
                                           : crypto::base64_decode(trim(header.substr(space)));
  size_t colon = decoded ? decoded->find(':') : std::string::npos;
  if (colon == std::string::npos) {
    json_error(res, "invalid_client", oauth_error::kInvalidClientDescription);
    return std::nullopt;
  }
  ClientCredentials basic{httplib::detail::decode_url(decoded->substr(0, colon), true),
                          httplib::detail::decode_url(decoded->substr(colon + 1), true)};
  if (form.count("client_id") && creds.client_id != basic.client_id) {
    json_error(res, "invalid_client", oauth_error::kInvalidClientDescription);
    return std::nullopt;
  }
  return basic;
}

void token_response(const OAuthContext& ctx, const httplib::Request& req, const IssuedToken& token,
                    httplib::Response& res) {
  std::string instance_url = ctx.instance_url(req);
  std::string org_id = to_id18(ctx.tokens->org_id()).value_or(ctx.tokens->org_id());
  // The identity URL lives on the org's login host (production or sandbox).
  std::string id = instance_url + login_host_path(ctx.config->org.sandbox) + "/id/" + org_id + "/" +
                   token.user_id;
  std::string issued_at = std::to_string(token.issued_at.time_since_epoch().count());
  // The platform's field order.
  nlohmann::ordered_json body;
  body["access_token"] = token.access_token;
  if (!token.refresh_token.empty()) body["refresh_token"] = token.refresh_token;
  body["signature"] = ctx.tokens->sign(token.client_id, id + issued_at);
  body["scope"] = token.scope;
  body["instance_url"] = instance_url;
  body["id"] = id;
  body["token_type"] = "Bearer";
  body["issued_at"] = issued_at;
  res.status = 200;
  res.set_content(text::json_text(body), kJsonType);
}

constexpr const char* kJwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer";

// One grant type the token endpoint takes: the parameters it cannot do
// without (RFC 6749 4.1.3, 4.3.2, 6; RFC 7523 2.1), whether the client
// authenticates (a JWT assertion is its own authentication), and the token
// store's call.
struct Grant {
  const char* type;
  std::vector<std::string> required;
  bool client_authenticates;
  GrantResult (*issue)(const OAuthContext&, const httplib::Request&, const Form&,
                       const ClientCredentials&);
};

const std::vector<Grant>& grants() {
  static const std::vector<Grant> table = {
      {"authorization_code",
       {"code", "redirect_uri"},
       true,
       [](const OAuthContext& ctx, const httplib::Request&, const Form& f,
          const ClientCredentials& c) {
         return ctx.tokens->exchange_code(c, get(f, "code"), get(f, "redirect_uri"),
                                          get(f, "code_verifier"));
       }},
      {"refresh_token",
       {"refresh_token"},
       true,
       [](const OAuthContext& ctx, const httplib::Request&, const Form& f,
          const ClientCredentials& c) { return ctx.tokens->refresh(c, get(f, "refresh_token")); }},
      {"client_credentials",
       {},
       true,
       [](const OAuthContext& ctx, const httplib::Request&, const Form&,
          const ClientCredentials& c) { return ctx.tokens->client_credentials(c); }},
      {"password",
       {"username", "password"},
       true,
       [](const OAuthContext& ctx, const httplib::Request&, const Form& f,
          const ClientCredentials& c) {
         return ctx.tokens->password(c, get(f, "username"), get(f, "password"));
       }},
      {kJwtBearerGrant,
       {"assertion"},
       false,
       [](const OAuthContext& ctx, const httplib::Request& req, const Form& f,
          const ClientCredentials&) {
         // An audience may name this server only by a name it answers as,
         // never by whatever Host a request brings (decision 200).
         const bool own = ctx.names_this_server
                              ? ctx.names_this_server(req)
                              : is_loopback_host_name(host_name_of(req.get_header_value("Host")));
         return ctx.tokens->jwt_bearer(get(f, "assertion"), own ? ctx.instance_url(req) : "");
       }},
  };
  return table;
}

const Grant* find_grant(std::string_view type) {
  for (const Grant& g : grants())
    if (type == g.type) return &g;
  return nullptr;
}

// The first parameter the grant needs that the form lacks, or empty. A
// parameter sent without a value counts as omitted (RFC 6749 3.1).
std::string missing_parameter(const Grant& grant, const Form& form) {
  for (const std::string& name : grant.required) {
    if (get(form, name).empty()) return name;
  }
  return std::string();
}

void handle_token(const OAuthContext& ctx, const httplib::Request& req, httplib::Response& res) {
  no_cache(res);
  std::optional<Form> form = read_form(req, res);
  if (!form) return;
  // A missing grant_type is unsupported_grant_type, not invalid_request (RFC
  // 6749 5.2): the platform's answer, and what a client that forgot the form
  // Content-Type sees there (decisions 23).
  const Grant* grant = find_grant(get(*form, "grant_type"));
  if (!grant) return json_error(res, "unsupported_grant_type", "grant type not supported");
  if (std::string missing = missing_parameter(*grant, *form); !missing.empty())
    return json_error(res, "invalid_request", "missing required parameter: " + missing);
  // A scope may be asked for at the token endpoint too (RFC 6749 4.4.2, 6);
  // the grant stays `full`.
  if (std::string unknown = first_unknown_scope(get(*form, "scope")); !unknown.empty())
    return json_error(res, "invalid_scope", "unknown scope: " + unknown);
  ClientCredentials client;
  if (grant->client_authenticates) {
    std::optional<ClientCredentials> read = read_client(req, *form, res);
    if (!read) return;
    client = std::move(*read);
  }
  GrantResult result = grant->issue(ctx, req, *form, client);
  if (!result.ok()) return json_error(res, result.error);
  token_response(ctx, req, *result.token, res);
}

void handle_revoke(const OAuthContext& ctx, const httplib::Request& req, httplib::Response& res) {
  no_cache(res);
  std::optional<Form> form = read_form(req, res);
  if (!form) return;
  std::string token = get(*form, "token");
  if (token.empty() || !ctx.tokens->revoke(token)) {
    json_error(res, "unsupported_token_type", "this token type is not supported");
    return;
  }
  res.status = 200;
}

std::string with_query(const std::string& uri, const std::string& query) {
  return uri + (uri.find('?') == std::string::npos ? "?" : "&") + query;
}

std::string state_suffix(const std::string& state) {
  return state.empty() ? std::string() : "&state=" + url_encode(state);
}

// The app when client_id and redirect_uri can be trusted; otherwise answers
// with the error page, since redirecting to an unchecked URI would make the
// org an open redirector. Either sent twice cannot be trusted either.
const ConnectedAppDef* trusted_app(const OAuthContext& ctx, const Form& form,
                                   const std::string& duplicate, httplib::Response& res) {
  if (duplicate == "client_id" || duplicate == "redirect_uri") {
    html_error(res, "invalid_request", "parameter sent more than once: " + duplicate);
    return nullptr;
  }
  const ConnectedAppDef* app = ctx.tokens->app(get(form, "client_id"));
  if (!app) {
    html_error(res, "invalid_client_id", "client identifier invalid");
    return nullptr;
  }
  std::string redirect_uri = get(form, "redirect_uri");
  for (const std::string& allowed : app->redirect_uris) {
    if (allowed == redirect_uri) return app;
  }
  std::string registered;
  for (const std::string& allowed : app->redirect_uris)
    registered += (registered.empty() ? "" : ", ") + allowed;
  html_error(res, "redirect_uri_mismatch", oauth_error::kRedirectMismatchDescription,
             "redirect_uri '" + redirect_uri + "' is not registered for connected app " +
                 app->client_id + "; the fixture registers (exact match): " +
                 (registered.empty() ? std::string("none") : registered));
  return nullptr;
}

// What a trusted authorize request asks that cannot be granted (RFC 6749
// 4.1.2.1, RFC 7636 4.4.1), or nullopt; `pkce` is its code challenge.
std::optional<OAuthError> check_authorize(const Form& form, const std::string& duplicate,
                                          CodeChallenge& pkce) {
  if (!duplicate.empty()) {
    return OAuthError{"invalid_request", "parameter sent more than once: " + duplicate};
  }
  std::string response_type = get(form, "response_type");
  if (response_type.empty()) {
    return OAuthError{"invalid_request", "missing required parameter: response_type"};
  }
  if (response_type != "code") {
    return OAuthError{"unsupported_response_type", "response type not supported"};
  }
  if (std::string unknown = first_unknown_scope(get(form, "scope")); !unknown.empty()) {
    return OAuthError{"invalid_scope", "unknown scope: " + unknown};
  }
  std::string why =
      read_code_challenge(get(form, "code_challenge"), get(form, "code_challenge_method"), pkce);
  if (!why.empty()) return OAuthError{"invalid_request", why};
  return std::nullopt;
}

// Answers an authorize request check_authorize refuses by redirect to its
// (trusted) redirect_uri; true when it did. A state sent twice is not echoed.
bool reject_authorize(const Form& form, const std::string& duplicate, CodeChallenge& pkce,
                      httplib::Response& res) {
  std::optional<OAuthError> error = check_authorize(form, duplicate, pkce);
  if (!error) return false;
  no_cache(res);
  std::string state = duplicate == "state" ? std::string() : state_suffix(get(form, "state"));
  res.set_redirect(with_query(get(form, "redirect_uri"),
                              "error=" + error->error +
                                  "&error_description=" + url_encode(error->description) + state),
                   302);
  return true;
}

void handle_authorize_page(const OAuthContext& ctx, const httplib::Request& req,
                           httplib::Response& res) {
  std::string duplicate;
  Form form = authorize_form(req, duplicate);
  const ConnectedAppDef* app = trusted_app(ctx, form, duplicate, res);
  CodeChallenge pkce;
  if (!app || reject_authorize(form, duplicate, pkce, res)) return;
  ApprovalPage page;
  page.org_name = ctx.config->org.name;
  page.sandbox = ctx.config->org.sandbox;
  page.app_name = app->name.empty() ? app->client_id : app->name;
  page.scope = TokenStore::kScope;
  page.response_type = get(form, "response_type");
  page.client_id = app->client_id;
  page.redirect_uri = get(form, "redirect_uri");
  page.state = get(form, "state");
  page.requested_scope = get(form, "scope");
  page.code_challenge = pkce.challenge;
  page.code_challenge_method = pkce.method;
  page.action = request_log_context().org_prefix + req.path;  // the org's own, on a shared server
  no_cache(res);
  res.status = 200;
  res.set_content(render_approval_page(page), kHtmlType);
}

void handle_authorize_decision(const OAuthContext& ctx, const httplib::Request& req,
                               httplib::Response& res) {
  // The form's hidden fields are the client's word again, so they are
  // checked again, exactly as on the page.
  std::string duplicate;
  Form form = authorize_form(req, duplicate);
  const ConnectedAppDef* app = trusted_app(ctx, form, duplicate, res);
  CodeChallenge pkce;
  if (!app || reject_authorize(form, duplicate, pkce, res)) return;
  std::string redirect_uri = get(form, "redirect_uri");
  std::string state = state_suffix(get(form, "state"));
  std::string decision = ascii_lower(get(form, "decision"));
  no_cache(res);
  if (decision == "allow") {
    std::string code = ctx.tokens->issue_code(app->client_id, redirect_uri, std::move(pkce));
    res.set_redirect(with_query(redirect_uri, "code=" + url_encode(code) + state), 302);
  } else if (decision == "deny") {
    res.set_redirect(
        with_query(redirect_uri, "error=access_denied&error_description=" +
                                     url_encode("end-user denied authorization") + state),
        302);
  } else {
    html_error(res, "invalid_request", "decision must be allow or deny");
  }
}

// A login host of the other kind of org (production vs sandbox): the app
// does not exist there, so the platform answers invalid_client_id; as the
// error page for authorize, as JSON for token and revoke. True when it
// answered.
bool wrong_login_host(const OAuthContext& ctx, bool sandbox_host, bool json,
                      const httplib::Request& req, httplib::Response& res) {
  const bool sandbox_org = ctx.config->org.sandbox;
  if (sandbox_org == sandbox_host) return false;
  const std::string rest = req.path.substr(login_host_path(sandbox_host).size());
  const std::string description = std::string("client identifier invalid: this org is a ") +
                                  (sandbox_org ? "sandbox" : "production") + " org; use " +
                                  ctx.instance_url(req) + login_host_path(sandbox_org) + rest;
  if (!json) {
    html_error(res, "invalid_client_id", description);
    return true;
  }
  no_cache(res);
  json_error(res, "invalid_client_id", description);
  return true;
}

}  // namespace

std::string login_host_path(bool sandbox) {
  return sandbox ? "/test" : "/login";
}

void add_oauth_handlers(Handlers& handlers, OAuthContext ctx) {
  auto page = [ctx](Call& c) { handle_authorize_page(ctx, c.req, c.res); };
  auto decision = [ctx](Call& c) { handle_authorize_decision(ctx, c.req, c.res); };
  handlers.on("getAuthorize", page);
  handlers.on("postAuthorize", decision);
  auto token = [ctx](Call& c) { handle_token(ctx, c.req, c.res); };
  auto revoke = [ctx](Call& c) { handle_revoke(ctx, c.req, c.res); };
  handlers.on("postToken", token);
  handlers.on("postRevoke", revoke);
  handlers.on("getRevoke", revoke);
  // A login host serves the org only when it is the org's kind (production
  // or sandbox).
  for (bool sandbox_host : {false, true}) {
    auto at_host = [ctx, sandbox_host](Handler handler, bool json) {
      return [ctx, sandbox_host, handler, json](Call& c) {
        if (!wrong_login_host(ctx, sandbox_host, json, c.req, c.res)) handler(c);
      };
    };
    const std::string host = sandbox_host ? "SandboxLogin" : "Login";
    handlers.on("get" + host + "Authorize", at_host(page, false));
    handlers.on("post" + host + "Authorize", at_host(decision, false));
    handlers.on("post" + host + "Token", at_host(token, true));
    handlers.on("post" + host + "Revoke", at_host(revoke, true));
    handlers.on("get" + host + "Revoke", at_host(revoke, true));
  }
  add_identity_handlers(handlers, ctx);
  // The REST data API's versions: an oauth-area row (the instance's paths
  // that need no token), so wherever the area is served, this is too.
  handlers.on("getDataVersions",
              [ctx](Call& c) { send_json(c.res, 200, data::versions_json(*ctx.config)); });
}

FAKE_ORG_HANDLERS(oauth) {
  add_oauth_handlers(
      handlers,
      OAuthContext{&context.org.config(), context.services.tokens.get(),
                   [tls = context.tls](const httplib::Request& r) { return origin_of(r, tls); },
                   [names = context.names](const httplib::Request& r) {
                     return names_this_server(names.get(), r.get_header_value("Host"));
                   }});
}

void register_oauth_routes(httplib::Server& server, OAuthContext ctx) {
  Handlers handlers;
  add_oauth_handlers(handlers, std::move(ctx));
  serve_paths(server, std::make_shared<const Router>(contracts::route_table(), std::move(handlers),
                                                     MountOptions{"", {"oauth"}}));
}

std::optional<TokenInfo> authenticate_request(const httplib::Request& req, TokenStore& tokens) {
  const std::string* raw_header = first_header(req.headers, "Authorization");
  std::string_view header = trim(raw_header ? std::string_view(*raw_header) : std::string_view());
  size_t space = header.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  std::string scheme = ascii_lower(header.substr(0, space));
  if (scheme != "bearer" && scheme != "oauth") return std::nullopt;
  std::string_view token = trim(header.substr(space));
  if (token.empty() || token.find(' ') != std::string_view::npos) return std::nullopt;
  return tokens.authenticate(token);
}

}  // namespace fake_org::http
