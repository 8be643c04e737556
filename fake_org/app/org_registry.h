#pragma once
// The orgs one fake-org serves (README "Several orgs"): the first, at the root,
// the command line's others and the ones POST /__admin/orgs creates, each
// under /orgs/{name}. The registry owns how an org comes to be (a fixture by
// name, path or inline object, built with app/org_factory.h, served as a
// site of the server) and how it goes; the server's OrgSites is the table
// requests are routed with. With a data directory (--data-dir) each org it
// builds keeps its state in its own database (durable/org_database.h), and
// the orgs POST /__admin/orgs creates are listed in durable/saved_orgs.h,
// so a restart serves them again (restore_saved_orgs()).
//
// Orgs made with a time to live (`ttl`) are deleted when it runs out, by a
// reaper thread (app/org_reaper.h), even if no request comes again.
//
// Locking rule: mu_ serialises create() and remove() (the name check, the
// cap and the add or removal of a site happen as one step; creations are
// rare and take about a millisecond). configs_ (parsed shipped fixtures,
// shared by the orgs made from them), next_number_ and leases_ are guarded
// by mu_ too; list() takes it to read leases_. The reaper's own lock is
// taken under mu_ (cancel, schedule), never the other way round.
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "app/org_factory.h"
#include "app/org_lease.h"
#include "app/org_reaper.h"
#include "durable/saved_orgs.h"
#include "http/org_sites.h"
#include "http/server.h"

namespace fake_org::app {

struct RegistryOptions {
  size_t max_orgs = 1000;  // --max-orgs, the root org included
  bool check_contracts = false;
  bool quiet = false;    // drop the orgs' notices (an embedded server's)
  std::string data_dir;  // --data-dir: each org's database, the created orgs' list
  // --fixtures-dir: where POST /__admin/orgs may name fixture files (fixture_paths.h).
  std::vector<std::string> fixtures_dirs;
  durable::Sync sync = durable::Sync::kNormal;
};

class OrgRegistry final : public http::OrgDirectory {
 public:
  // `server` outlives the registry's use; its sites are where orgs are added.
  OrgRegistry(http::Server& server, RegistryOptions options);

  // An org of the command line after the first (`--fixture [NAME=]PATH`):
  // its message when it cannot be served. A client id or a user name another
  // org has at the login paths leaves it to its prefix, with a notice in
  // `notice`.
  std::optional<std::string> add_command_line_org(const std::string& spec, std::string& notice);

  // With a data directory: serves again the orgs POST /__admin/orgs created
  // before a restart, and keeps the list from now on. The message when one
  // cannot be served (its database refused or damaged). Call after the
  // command line's orgs, before requests arrive.
  std::optional<std::string> restore_saved_orgs();

  // For a process about to exit without destroying its orgs (fake-org's
  // main, once the server stopped): stops every org's webhook workers, writes
  // what is still queued for the data directory and closes its databases.
  // The first problem's message, if any.
  std::optional<std::string> close_for_exit();

  Answer create(const nlohmann::json& request, const std::string& origin) override;
  Answer list(const std::string& origin) const override;
  Answer remove(const std::string& name) override;

  // Letters, digits, '-' and '_', 1 to 63 characters, starting with a letter
  // or digit: a URL path segment as it is.
  static bool valid_name(const std::string& name);
  static constexpr size_t kDefaultMaxOrgs = 1000;

 private:
  struct Loaded {
    std::shared_ptr<const OrgConfig> config;
    std::string label;  // the fixture's name or file stem, for a generated org name
  };
  // The fixture a request names: a shipped one by name, a file, or inline.
  // A file named `from_request` must be under a fixtures directory.
  std::optional<Loaded> load_locked(const nlohmann::json& fixture, bool from_request,
                                    std::string& error);
  std::shared_ptr<http::OrgSite> build_locked(const Loaded& loaded, const std::string& name,
                                              bool login_paths, std::string& error);
  std::string next_name_locked(const std::string& label);
  // Stops serving `name` and forgets it; the site, for the caller to let go
  // of after the lock (its workers stop then). Null when there is none.
  std::shared_ptr<http::OrgSite> remove_locked(const std::string& name,
                                               std::optional<std::string>& failed);
  // The reaper's call: `name`'s time to live ran out.
  void expire(const std::string& name);

  http::Server& server_;
  RegistryOptions options_;
  mutable std::mutex mu_;
  std::unique_ptr<durable::SavedOrgs> saved_;  // with a data directory, once restored
  std::map<std::string, std::shared_ptr<const OrgConfig>> configs_;
  size_t next_number_ = 1;
  // Who made each org and when; the first org's is the registry's start.
  std::map<std::string, OrgLease> leases_;
  std::chrono::system_clock::time_point started_ = std::chrono::system_clock::now();
  // Last: destroyed first, so its thread stops before what it deletes with.
  OrgReaper reaper_{[this](const std::string& name) { expire(name); }};
};

}  // namespace fake_org::app
