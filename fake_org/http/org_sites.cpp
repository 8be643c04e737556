#include "org_sites.h"

#include <malloc.h>
#include <strings.h>

#include <algorithm>
#include <iostream>
#include <mutex>

#include "fault_injector.h"
#include "request_journal.h"
#include "request_log.h"
#include "responses.h"
#include "routes.h"
#include "util/ascii.h"
#include "util/crypto.h"
#include "util/memory_cap.h"
#include "util/rsa.h"
#include "util/thread_cache.h"

namespace fake_org::http {

namespace {

void send_directory_answer(httplib::Response& res, const OrgDirectory::Answer& a) {
  send_json(res, a.status, a.body);
}

void send_no_directory(httplib::Response& res) {
  send_platform_error(res, 404, "NOT_FOUND",
                      "This server serves one org only: start fake-org itself to create orgs "
                      "(POST /__admin/orgs)");
}

// The JSON body of an admin call, or null after answering 400.
std::optional<nlohmann::json> org_request_body(const httplib::Request& req,
                                               httplib::Response& res) {
  if (req.body.empty()) return nlohmann::json::object();
  auto j = nlohmann::json::parse(req.body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    send_platform_error(res, 400, "JSON_PARSER_ERROR",
                        "The body must be a JSON object such as {\"fixture\": \"default.yaml\", "
                        "\"name\": \"shop-a\"}");
    return std::nullopt;
  }
  return j;
}

// A JWT's payload claim `claim` (a string), or "".
std::string assertion_claim(const std::string& assertion, const char* claim) {
  const size_t a = assertion.find('.');
  const size_t b = a == std::string::npos ? a : assertion.find('.', a + 1);
  if (b == std::string::npos) return {};
  auto payload = crypto::base64url_decode(std::string_view(assertion).substr(a + 1, b - a - 1));
  if (!payload) return {};
  auto claims = nlohmann::json::parse(*payload, nullptr, false);
  if (!claims.is_object() || !claims.contains(claim) || !claims[claim].is_string()) return {};
  return claims[claim].get<std::string>();
}

std::string basic_user(const httplib::Request& req) {
  const std::string auth = req.get_header_value("Authorization");
  if (auth.size() < 7 || strncasecmp(auth.c_str(), "Basic ", 6) != 0) return {};
  auto decoded = crypto::base64_decode(std::string_view(auth).substr(6));
  if (!decoded) return {};
  return decoded->substr(0, decoded->find(':'));
}

}  // namespace

// GET, POST /__admin/orgs, DELETE /__admin/orgs/{name}; with no directory
// (an embedded single org) they answer 404 saying so.
FAKE_ORG_HANDLERS(org_admin) {
  const std::shared_ptr<OrgDirectory> directory = context.orgs;
  const bool tls = context.tls;
  handlers.on("getAdminOrgs", [directory, tls](Call& c) {
    if (!directory) return send_no_directory(c.res);
    send_directory_answer(c.res, directory->list(server_origin_of(c.req, tls)));
  });
  handlers.on("postAdminOrg", [directory, tls](Call& c) {
    if (!directory) return send_no_directory(c.res);
    auto body = org_request_body(c.req, c.res);
    if (!body) return;
    // GET /__admin/orgs says who made each org: a client that does not say
    // is named by its User-Agent and address, which is how it can be found.
    if (body->is_object() && !body->contains("created_by")) {
      const std::string agent = c.req.get_header_value("User-Agent");
      (*body)["created_by"] = (agent.empty() ? std::string("a client") : agent.substr(0, 120)) +
                              " at " + c.req.remote_addr;
    }
    send_directory_answer(c.res, directory->create(*body, server_origin_of(c.req, tls)));
  });
  handlers.on("deleteAdminOrg", [directory](Call& c) {
    if (!directory) return send_no_directory(c.res);
    send_directory_answer(c.res, directory->remove(c.params["name"]));
    // The org's memory is back in glibc's arenas (unless a request still
    // holds it); hand it to the system, and let writes see it at once.
    util::drain_thread_caches();
    malloc_trim(0);
    util::sample_memory(true);
  });
}

std::shared_ptr<OrgSite> make_org_site(std::string name, std::string prefix, OrgServices services,
                                       const SiteOptions& options) {
  const std::string base = services.org->config().base_path();
  return make_org_site(std::move(name), std::move(prefix), std::move(services), options,
                       std::make_shared<RequestJournal>(base), std::make_shared<FaultInjector>());
}

std::shared_ptr<OrgSite> make_org_site(std::string name, std::string prefix, OrgServices services,
                                       const SiteOptions& options,
                                       std::shared_ptr<RequestJournal> journal,
                                       std::shared_ptr<FaultInjector> faults) {
  auto site = std::make_shared<OrgSite>();
  site->name = std::move(name);
  site->prefix = std::move(prefix);
  site->services = std::move(services);
  const OrgConfig& config = site->services.org->config();
  site->journal = std::move(journal);
  site->faults = std::move(faults);
  auto site_router = std::make_shared<SiteRouter>();
  Handlers handlers =
      all_handlers(site->services, *site->journal, *site->faults, options.tls, options.directory,
                   site_router, options.admin, options.provider_states);
  site->router = std::make_shared<const Router>(contracts::route_table(), std::move(handlers),
                                                MountOptions{config.base_path(), {}});
  site_router->router = site->router.get();
  site->guards =
      Guards{site->services.tokens, site->faults, options.admin, config.org.max_body_bytes};
  return site;
}

void OrgSites::set_root(std::shared_ptr<OrgSite> root, SiteOptions options) {
  std::unique_lock lock(mu_);
  root_ = root;
  site_options_ = std::move(options);
  by_name_[root->name] = root;
  if (root->login_paths && !clash_locked(*root)) list_login_keys_locked(root);
}

std::shared_ptr<OrgSite> OrgSites::root() const {
  std::shared_lock lock(mu_);
  return root_;
}

std::shared_ptr<OrgSite> OrgSites::reopen(const std::shared_ptr<OrgSite>& failed) {
  std::lock_guard reopening(reopen_mu_);
  {
    std::shared_lock lock(mu_);
    auto it = by_name_.find(failed->name);
    if (it == by_name_.end()) return failed;  // removed meanwhile
    if (it->second != failed) return it->second;
  }
  if (!failed->services.reopen) return failed;
  // Its pending deliveries are on disk: the org built again sends them.
  failed->services.webhooks->stop();
  auto services = failed->services.reopen();
  if (!services.ok()) {
    std::cerr << "fake-org: org '" << failed->name
              << "' could not be built again from its data file after a refused write: "
              << services.errors().front().message << "\n";
    return failed;
  }
  auto fresh = make_org_site(failed->name, failed->prefix, std::move(*services), site_options_,
                             failed->journal, failed->faults);
  fresh->login_paths = failed->login_paths;
  std::unique_lock lock(mu_);
  by_name_[fresh->name] = fresh;
  if (root_ == failed) root_ = fresh;
  // A walk over the login keys: only after a refused write.
  for (auto* keys : {&by_client_, &by_user_})
    for (auto& entry : *keys)
      if (entry.second == failed) entry.second = fresh;
  return fresh;
}

void OrgSites::list_login_keys_locked(const std::shared_ptr<OrgSite>& site) {
  const AuthSettings& auth = site->services.org->config().auth;
  for (const auto& app : auth.connected_apps) by_client_[app.client_id] = site;
  for (const auto& user : auth.users) by_user_[ascii_lower(user.username)] = site;
}

std::shared_ptr<OrgSite> OrgSites::find(std::string_view name) const {
  std::shared_lock lock(mu_);
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : it->second;
}

std::shared_ptr<OrgSite> OrgSites::by_client_id(std::string_view client_id) const {
  std::shared_lock lock(mu_);
  auto it = by_client_.find(std::string(client_id));
  return it == by_client_.end() ? nullptr : it->second;
}

std::shared_ptr<OrgSite> OrgSites::by_user_name(std::string_view username) const {
  const std::string key = ascii_lower(username);
  std::shared_lock lock(mu_);
  auto it = by_user_.find(key);
  return it == by_user_.end() ? nullptr : it->second;
}

std::optional<std::string> OrgSites::clash_locked(const OrgSite& site) const {
  const AuthSettings& auth = site.services.org->config().auth;
  for (const auto& app : auth.connected_apps)
    if (auto it = by_client_.find(app.client_id); it != by_client_.end())
      return "the client id '" + app.client_id + "' already names org '" + it->second->name +
             "' at the login paths (/login, /test)";
  // The platform's user names are unique across orgs: a login with one names its org.
  for (const auto& user : auth.users)
    if (auto it = by_user_.find(ascii_lower(user.username)); it != by_user_.end())
      return "the user name '" + user.username + "' already names org '" + it->second->name +
             "' at the login paths (/login, /test)";
  return std::nullopt;
}

std::optional<std::string> OrgSites::login_clash(const OrgSite& site) const {
  std::shared_lock lock(mu_);
  return clash_locked(site);
}

std::optional<std::string> OrgSites::add(std::shared_ptr<OrgSite> site) {
  std::unique_lock lock(mu_);
  if (by_name_.count(site->name))
    return "an org named '" + site->name + "' already exists (GET /__admin/orgs lists them)";
  if (site->login_paths) {
    if (auto clash = clash_locked(*site))
      return *clash +
             ": give this org's connected apps other client_ids and its users other "
             "usernames (auth.connected_apps, auth.users of a fixture that extends this one), "
             "or create it without \"login_paths\" (or with false) to serve it under " +
             std::string(kOrgsPrefix) + site->name + " only";
    list_login_keys_locked(site);
  }
  by_name_[site->name] = std::move(site);
  return std::nullopt;
}

std::shared_ptr<OrgSite> OrgSites::remove(std::string_view name) {
  std::unique_lock lock(mu_);
  auto it = by_name_.find(std::string(name));
  if (it == by_name_.end()) return nullptr;
  auto site = std::move(it->second);
  by_name_.erase(it);
  const AuthSettings& auth = site->services.org->config().auth;
  for (const auto& app : auth.connected_apps) {
    auto c = by_client_.find(app.client_id);
    if (c != by_client_.end() && c->second == site) by_client_.erase(c);
  }
  for (const auto& user : auth.users) {
    auto u = by_user_.find(ascii_lower(user.username));
    if (u != by_user_.end() && u->second == site) by_user_.erase(u);
  }
  return site;
}

std::vector<std::shared_ptr<OrgSite>> OrgSites::list() const {
  std::vector<std::shared_ptr<OrgSite>> out;
  {
    std::shared_lock lock(mu_);
    out.reserve(by_name_.size());
    for (const auto& entry : by_name_) out.push_back(entry.second);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a->name < b->name; });
  return out;
}

size_t OrgSites::size() const {
  std::shared_lock lock(mu_);
  return by_name_.size();
}

void route_to_site(const OrgSites& sites, const httplib::Request& req, RequestLogContext& ctx) {
  ctx.org_prefix.clear();
  ctx.unknown_org.clear();
  const std::string& path = req.path;
  if (path.compare(0, kOrgsPrefix.size(), kOrgsPrefix) != 0) {
    ctx.site = sites.root();
    return;
  }
  const size_t end = std::min(path.find('/', kOrgsPrefix.size()), path.size());
  std::string name = path.substr(kOrgsPrefix.size(), end - kOrgsPrefix.size());
  ctx.site = sites.find(name);
  if (!ctx.site) {
    ctx.unknown_org = name.empty() ? std::string("(none)") : std::move(name);
    return;
  }
  ctx.org_prefix = path.substr(0, end);
  std::string rest = end < path.size() ? path.substr(end) : std::string("/");
  // The worker's own request object (httplib's process_request local), as
  // declare_empty_body_if_unframed treats it: the org's router, journal and
  // contract see the path as the org's own.
  const_cast<httplib::Request&>(req).path = std::move(rest);
}

const OrgSite& current_site(const OrgSites& sites) {
  auto& ctx = request_log_context();
  if (ctx.routed && ctx.site) return *ctx.site;
  // Held by the request's context: a site replaced meanwhile stays alive.
  ctx.fallback_site = sites.root();
  return *ctx.fallback_site;
}

namespace {

bool is_root_login_path(const std::string& path) {
  return path.rfind("/login/services/oauth2/", 0) == 0 ||
         path.rfind("/test/services/oauth2/", 0) == 0;
}

// As on the platform, the login hosts serve every org: the connected app
// names it (decisions 106), else the user who logs in (decisions 77); null
// when neither names one (the root org answers).
std::shared_ptr<OrgSite> login_site(const OrgSites& sites, const httplib::Request& req) {
  const std::string client_id = login_client_id(req);
  if (auto named = client_id.empty() ? nullptr : sites.by_client_id(client_id)) return named;
  const std::string username = login_user_name(req);
  return username.empty() ? nullptr : sites.by_user_name(username);
}

void serve_one(OrgSites& sites, const httplib::Request& req, httplib::Response& res) {
  auto& ctx = request_log_context();
  if (!ctx.site) {
    if (ctx.unknown_org.empty())
      ctx.site = sites.root();  // httplib skipped pre-routing
    else
      return send_platform_error(
          res, 404, "NOT_FOUND",
          "No org named '" + ctx.unknown_org + "' on this server (GET /__admin/orgs lists them)");
  }
  if (ctx.org_prefix.empty() && is_root_login_path(req.path))
    if (auto named = login_site(sites, req); named && named != ctx.site) {
      ctx.site = named;
      ctx.org_prefix = named->prefix;
    }
  if (const auto& state = ctx.site->services.org->state(); state && state->rolled_back())
    ctx.site = sites.reopen(ctx.site);
  const OrgSite& site = *ctx.site;
  // httplib holds bodies to the first org's org.max_body_bytes; an org with
  // a smaller limit refuses the rest (the error handler writes its 413).
  if (req.body.size() > site.guards.max_body_bytes) {
    res.status = 413;
    return;
  }
  const auto& state = site.services.org->state();
  const bool reads = req.method == "GET" || req.method == "HEAD" || req.method == "OPTIONS";
  const bool waiting_for_disk = state && state->disk_full();
  // On a full disk a write is refused before it changes anything.
  if (waiting_for_disk && !reads)
    if (auto probed = state->probe_disk(); !probed.ok())
      return send_platform_error(res, 503, "SERVER_UNAVAILABLE", probed.errors().front().message);
  if (state) state->begin_request();
  {
    std::optional<util::RequestGate::Admission> admitted;
    if (sites.request_gate()) admitted.emplace(*sites.request_gate());
    dispatch(*site.router, site.guards, req, res);
  }
  // With a data directory, what the request changed is on disk before the
  // answer leaves (group commit: a concurrent request may have written it).
  // A read on a full disk answers from memory, which holds nothing the disk
  // refused.
  if (!state || (waiting_for_disk && reads && !state->rolled_back())) return;
  if (auto written = state->flush(); !written.ok()) {
    // What it changed is on disk, and the org built again holds it.
    const bool stands = state->own_changes_written();
    if (state->rolled_back()) sites.reopen(ctx.site);
    if (stands) return;
    res = httplib::Response();
    send_platform_error(res, 503, "SERVER_UNAVAILABLE", written.errors().front().message);
  }
}

}  // namespace

bool serve_if_bodiless(OrgSites& sites, const httplib::Request& req, httplib::Response& res) {
  const bool bodiless =
      req.method == "GET" || req.method == "HEAD" ||
      ((req.method == "DELETE" || req.method == "OPTIONS") && !req.has_header("Content-Length"));
  if (!bodiless) return false;
  serve_one(sites, req, res);
  return true;
}

httplib::Server::Handler serve_sites(httplib::Server& server, OrgSites& sites) {
  auto handler = [&sites](const httplib::Request& req, httplib::Response& res) {
    serve_one(sites, req, res);
  };
  server.Get(".*", handler);
  server.Post(".*", handler);
  server.Put(".*", handler);
  server.Patch(".*", handler);
  server.Delete(".*", handler);
  server.Options(".*", handler);
  return handler;
}

std::string login_client_id(const httplib::Request& req) {
  if (req.has_param("client_id")) return req.get_param_value("client_id");
  if (req.has_param("assertion")) return assertion_claim(req.get_param_value("assertion"), "iss");
  return basic_user(req);
}

std::string login_user_name(const httplib::Request& req) {
  if (req.has_param("username")) return req.get_param_value("username");
  if (req.has_param("assertion")) return assertion_claim(req.get_param_value("assertion"), "sub");
  return {};
}

}  // namespace fake_org::http
