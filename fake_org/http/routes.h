#pragma once
// Every handler the org's server mounts, by operationId (the rows of
// contracts/routes.yaml). Handlers are thin: parse, one domain call, to_json.
//
// A handler file registers its group itself, in namespace fake_org::http:
//
//   FAKE_ORG_HANDLERS(mandate) {
//     handlers.on("getMandate", [&org = context.org](Call& c) { ... });
//   }
//
// and nothing else lists it: the build writes handler_groups() from every
// FAKE_ORG_HANDLERS that starts a line of http/*.cpp
// (cmake/handler_groups.cmake), and all_handlers() runs each group. That
// list names each group's function, so the linker keeps every handler file.
// A row of the table that no handler registers stops the mount (router.h),
// so a handler not written, or registered under another name, keeps the
// server from starting rather than dropping a route.
#include <memory>
#include <vector>

#include "org_services.h"
#include "router.h"

namespace fake_org {
struct ProviderStates;
}

namespace fake_org::admin {
class Admin;
}

namespace fake_org::http {

class RequestJournal;
class FaultInjector;
class OrgDirectory;
struct ApiUsage;
struct AdminPolicy;

// The router a site's handlers are mounted in, for the handlers that run
// others (composite subrequests). Set once, after the router is built and
// before it serves; read-only after, so no lock. Null until then.
struct SiteRouter {
  const Router* router = nullptr;
};

// What a group is given while the site's router is built. Its handlers may
// keep references to the org, journal and faults (the site owns them and
// outlives its router) and copies of the shared pointers, but not to the
// context itself, which lives only while the groups register.
struct HandlerContext {
  const OrgServices& services;
  Org& org;
  RequestJournal& journal;
  FaultInjector& faults;
  bool tls;  // the server's scheme, for the URLs it hands out
  // What /__admin/orgs creates, lists and deletes orgs with (null: one org).
  std::shared_ptr<OrgDirectory> orgs;
  // The admin API's and the dashboard's way into the org.
  std::shared_ptr<admin::Admin> admin;
  // The REST data API's request count, one per org.
  std::shared_ptr<ApiUsage> api_usage;
  // The router these handlers are mounted in (set once it is built).
  std::shared_ptr<SiteRouter> site_router;
  // The names this server answers as (--host, --admin-allow-host; null:
  // loopback names only), which a JWT's audience may name.
  std::shared_ptr<const AdminPolicy> names;
  // fake-org --provider-states: what POST /__admin/provider-states applies
  // (null: none given).
  std::shared_ptr<const ProviderStates> provider_states;
};

struct HandlerGroup {
  const char* name;
  const char* file;  // the source that defines it, relative to fake_org/
  void (*add)(Handlers&, const HandlerContext&);
};

// Every group of http/*.cpp, by file and then by line (the build's list).
const std::vector<HandlerGroup>& handler_groups();

// Every handler the org's server mounts: the API, OAuth, the PSP's pages and
// the admin API, each group's.
// `site_router`: where the caller puts the router it mounts them in (null:
// composite requests find none and answer 503).
// `names`: the admin guard's policy, whose host names are this server's.
Handlers all_handlers(const OrgServices& services, RequestJournal& journal, FaultInjector& faults,
                      bool tls, std::shared_ptr<OrgDirectory> orgs = nullptr,
                      std::shared_ptr<SiteRouter> site_router = nullptr,
                      std::shared_ptr<const AdminPolicy> names = nullptr,
                      std::shared_ptr<const ProviderStates> provider_states = nullptr);

}  // namespace fake_org::http

// Defines the handler group `name` (lower case: [a-z][a-z0-9_]*), a function
// of `handlers` (what it registers into) and `context`. Write it at the start
// of a line, inside namespace fake_org::http.
#define FAKE_ORG_HANDLERS(name)                                                    \
  void handler_group_##name(::fake_org::http::Handlers& handlers,                  \
                            const ::fake_org::http::HandlerContext& context);      \
  void handler_group_##name([[maybe_unused]] ::fake_org::http::Handlers& handlers, \
                            [[maybe_unused]] const ::fake_org::http::HandlerContext& context)
