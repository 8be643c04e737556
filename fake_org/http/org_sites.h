#pragma once
// Several orgs on one server (README "Several orgs"): each org is a site, its
// own router, journal, faults and token guard over its services, served at
// the root (the first org) or under /orgs/{name}. The server finds a site by
// name with one hash lookup, and the root login paths (/login, /test) find
// one by the connected app's client id or, when that names none, by the
// grant's user name (decisions 77).
//
// Locking rule: mu_ (a shared mutex) guards root_, by_name_, by_client_ and
// by_user_; lookups hold it shared for one hash probe and hand out a
// shared_ptr, so a site removed or replaced while a request uses it lives
// until that request ends. add(), remove() and a recovery's swap hold it
// exclusively. reopen_mu_ serialises recoveries (an org built again from its
// data file, seconds for a large one) and is taken before mu_, never under
// it. A site is immutable once built; its parts guard their own state.
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>
#include "dispatch.h"
#include "org_services.h"
#include "router.h"
#include "util/request_gate.h"

namespace fake_org {
struct ProviderStates;
}

namespace fake_org::http {

class RequestJournal;
class FaultInjector;

// Where a site is served: "/orgs/" + name.
inline constexpr std::string_view kOrgsPrefix = "/orgs/";

// One org as the server serves it.
struct OrgSite {
  std::string name;
  std::string prefix;       // "" for the root org, else "/orgs/{name}"
  bool login_paths = true;  // the root /login and /test paths find it (client id, user name)
  OrgServices services;
  std::shared_ptr<RequestJournal> journal;
  std::shared_ptr<FaultInjector> faults;
  std::shared_ptr<const Router> router;
  Guards guards;
};

// What POST, GET and DELETE /__admin/orgs call: the app's org registry
// (app/org_registry.h), which loads fixtures and builds orgs. An answer is a
// status and a JSON body, so the HTTP layer stays thin.
class OrgDirectory {
 public:
  virtual ~OrgDirectory() = default;
  struct Answer {
    int status = 200;
    nlohmann::json body;
  };
  // `origin`: scheme://host:port as the caller reached the server.
  virtual Answer create(const nlohmann::json& request, const std::string& origin) = 0;
  virtual Answer list(const std::string& origin) const = 0;
  virtual Answer remove(const std::string& name) = 0;
};

struct SiteOptions {
  bool tls = false;
  std::shared_ptr<const AdminPolicy> admin;  // the admin guard's (admin_guard.h)
  std::shared_ptr<OrgDirectory> directory;   // may be null
  // fake-org --provider-states (fixture/provider_states.h); may be null
  std::shared_ptr<const ProviderStates> provider_states;
};

// Builds the site of `services`: its router over every row of the route
// table. Throws MountError as Router does.
std::shared_ptr<OrgSite> make_org_site(std::string name, std::string prefix, OrgServices services,
                                       const SiteOptions& options);
// The same, keeping a site's journal and faults (an org built again).
std::shared_ptr<OrgSite> make_org_site(std::string name, std::string prefix, OrgServices services,
                                       const SiteOptions& options,
                                       std::shared_ptr<RequestJournal> journal,
                                       std::shared_ptr<FaultInjector> faults);

class OrgSites {
 public:
  // The first org, also served at the root. Set before the server starts,
  // with what a site built again is made with.
  void set_root(std::shared_ptr<OrgSite> root, SiteOptions options = {});
  std::shared_ptr<OrgSite> root() const;

  // `failed`'s org dropped a write its data file refused (a full disk), so
  // its memory is ahead of the file: builds the org again from the file
  // (OrgServices::reopen) and serves that in its place, keeping its journal
  // and faults. The site now serving that name: the new one, one a
  // concurrent call built, or `failed` when it cannot be built again (why,
  // on stderr).
  std::shared_ptr<OrgSite> reopen(const std::shared_ptr<OrgSite>& failed);

  // The site named `name` (the root org's name too), or null.
  std::shared_ptr<OrgSite> find(std::string_view name) const;
  // The site whose connected app has this client id at the login paths, or null.
  std::shared_ptr<OrgSite> by_client_id(std::string_view client_id) const;
  // The site with a user of this name (ASCII case ignored, as the fixture's
  // usernames are) at the login paths, or null.
  std::shared_ptr<OrgSite> by_user_name(std::string_view username) const;
  // Adds the site; the reason when it cannot (a name taken, a client id or a
  // user name that already names another org at the login paths).
  std::optional<std::string> add(std::shared_ptr<OrgSite> site);
  // The gate every request of these orgs passes (decision 133); null: none.
  // Set before the server starts.
  void set_request_gate(util::RequestGate* gate) { gate_ = gate; }
  util::RequestGate* request_gate() const { return gate_; }
  // Removes the site, its client ids and user names; null when there is none.
  std::shared_ptr<OrgSite> remove(std::string_view name);
  std::vector<std::shared_ptr<OrgSite>> list() const;  // by name
  size_t size() const;
  // What already names another org at the login paths of `site`'s client
  // ids and user names (the first found), e.g. "the user name 'a@b.example'
  // already names org 'shop' at the login paths (/login, /test)".
  std::optional<std::string> login_clash(const OrgSite& site) const;

 private:
  std::optional<std::string> clash_locked(const OrgSite& site) const;
  void list_login_keys_locked(const std::shared_ptr<OrgSite>& site);
  std::shared_ptr<OrgSite> root_;
  SiteOptions site_options_;  // set with the root, then only read
  util::RequestGate* gate_ = nullptr;
  std::mutex reopen_mu_;
  mutable std::shared_mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<OrgSite>> by_name_;
  std::unordered_map<std::string, std::shared_ptr<OrgSite>> by_client_;
  std::unordered_map<std::string, std::shared_ptr<OrgSite>> by_user_;  // ASCII lower case
};

struct RequestLogContext;

// In the pre-routing handler: the org of the request. Under /orgs/{name} the
// named org, and the request's path is rewritten to what follows the prefix
// (the worker's own request object); else the root org. Sets ctx.site,
// ctx.org_prefix and, for a name no org has, ctx.unknown_org.
void route_to_site(const OrgSites& sites, const httplib::Request& req, RequestLogContext& ctx);
// The org serving the current request: the context's, else the root.
const OrgSite& current_site(const OrgSites& sites);
// Every request through its org's router (one catch-all per method). A token,
// authorize or revoke request at the root login paths goes to the org its
// client id names, else to the one its user name names. `sites` outlives the
// server. Returns the handler, for a path that routes without httplib.
httplib::Server::Handler serve_sites(httplib::Server& server, OrgSites& sites);
// Serves a request that carries no body (GET, HEAD; DELETE and OPTIONS
// without Content-Length)
// and says so, from the pre-routing handler: cpp-httplib would otherwise
// run std::regex_match(".*") over its path first, about 3,000 instructions
// a character. A request with a body waits for httplib to read it.
bool serve_if_bodiless(OrgSites& sites, const httplib::Request& req, httplib::Response& res);

// The client id a request to a login path names: the form's or query's
// client_id, HTTP Basic's user, or a JWT assertion's issuer; empty when none.
std::string login_client_id(const httplib::Request& req);
// The user name a request to a login path names: the password grant's
// username, or a JWT assertion's subject; empty when none.
std::string login_user_name(const httplib::Request& req);

}  // namespace fake_org::http
