#include "app/org_registry.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

#include "app/fixture_paths.h"
#include "durable/org_database.h"
#include "fixture/fixture_loader.h"
#include "util/json_text.h"
#include "util/memory_cap.h"

namespace fake_org::app {

namespace {

using Answer = http::OrgDirectory::Answer;

Answer registry_error(int status, const std::string& code, const std::string& message) {
  return Answer{status, nlohmann::json::array({{{"message", message}, {"errorCode", code}}})};
}

bool is_shipped_fixture(const std::string& name) {
  const auto names = embedded_fixture_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string shipped_list() {
  std::string out;
  for (const auto& n : embedded_fixture_names()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// "fixtures/shop.yaml" -> "shop"; "embedded:nonprofit.yaml" -> "nonprofit".
std::string fixture_stem(const std::string& spec) {
  std::string s = spec.rfind("embedded:", 0) == 0 ? spec.substr(9) : spec;
  s = std::filesystem::path(s).stem().string();
  std::string out;
  for (char c : s)
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '-';
  return out.empty() || !std::isalnum(static_cast<unsigned char>(out[0])) ? "org" : out;
}

nlohmann::json connected_apps_json(const OrgConfig& config) {
  nlohmann::json apps = nlohmann::json::array();
  for (const auto& app : config.auth.connected_apps)
    apps.push_back(
        {{"name", app.name}, {"client_id", app.client_id}, {"client_secret", app.client_secret}});
  return apps;
}

// The root org's instance URL is the server's own (it answers under
// /orgs/{name} as well).
nlohmann::json site_json(const http::OrgSite& site, const std::string& origin, bool root) {
  const OrgConfig& config = site.services.org->config();
  const std::string instance = root ? origin : origin + site.prefix;
  return {{"name", site.name},
          {"instance_url", instance},
          {"root", root},
          {"login_paths", site.login_paths},
          {"fixture", config.source_name},
          {"org", config.org.name},
          {"orgId", site.services.org->org_id()},
          {"token_url", instance + "/services/oauth2/token"},
          {"api_base", instance + config.base_path()}};
}

// Why an org created without "login_paths" is served under its prefix only,
// and how to have it served at the login paths as well.
std::string registry_prefix_only_note(const http::OrgSite& site, const std::string& clash) {
  std::string fixture = site.services.org->config().source_name;
  if (fixture.rfind("embedded:", 0) == 0) fixture = fixture.substr(9);  // as extends names it
  return "Served under " + site.prefix + " only, not at the login paths: " + clash +
         ". To serve it there too, give it its own auth.connected_apps (client ids) and "
         "auth.users (user names), e.g. {\"fixture\": {\"extends\": \"" +
         fixture + "\", \"auth\": {...}}}, and create it with \"login_paths\": true";
}

// The fields of POST /__admin/orgs, checked before the registry is locked;
// the 400 answer when one is wrong. Fills `lease` (ttl, created_by).
std::optional<Answer> registry_check_create_request(const nlohmann::json& request,
                                                    OrgLease& lease) {
  for (const auto& [key, value] : request.items())
    if (key != "fixture" && key != "name" && key != "login_paths" && key != "ttl" &&
        key != "created_by")
      return registry_error(
          400, "INVALID_FIELD",
          "Unknown field '" + key + "': an org takes fixture, name, login_paths, ttl, created_by");
  if (auto bad = lease_from_request(request, "a client that gave no created_by", lease))
    return registry_error(400, "INVALID_FIELD", *bad);
  const nlohmann::json& name = request.contains("name") ? request["name"] : nullptr;
  if (!name.is_null() && (!name.is_string() || !OrgRegistry::valid_name(name.get<std::string>())))
    return registry_error(400, "INVALID_FIELD",
                          "'name' must be 1 to 63 letters, digits, '-' or '_', starting with a "
                          "letter or digit; got " +
                              text::json_text(name));
  const nlohmann::json& login = request.contains("login_paths") ? request["login_paths"] : nullptr;
  if (!login.is_null() && !login.is_boolean())
    return registry_error(400, "INVALID_FIELD", "'login_paths' must be true or false");
  return std::nullopt;
}

}  // namespace

OrgRegistry::OrgRegistry(http::Server& server, RegistryOptions options)
    : server_(server), options_(options) {}

bool OrgRegistry::valid_name(const std::string& name) {
  if (name.empty() || name.size() > 63) return false;
  if (!std::isalnum(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

std::string OrgRegistry::next_name_locked(const std::string& label) {
  for (;;) {
    std::string name = label + "-" + std::to_string(next_number_++);
    if (!server_.sites().find(name)) return name;
  }
}

std::optional<OrgRegistry::Loaded> OrgRegistry::load_locked(const nlohmann::json& fixture,
                                                            bool from_request, std::string& error) {
  FixtureLoad load;
  std::string label;
  if (fixture.is_object()) {
    load = load_fixture_text(text::json_text(fixture), "inline fixture");
    label = "org";
  } else if (!fixture.is_string() || fixture.get<std::string>().empty()) {
    error = "'fixture' must be a shipped fixture's name (" + shipped_list() +
            "), a fixture file under --fixtures-dir, or a fixture as a JSON object";
    return std::nullopt;
  } else {
    std::string spec = fixture.get<std::string>();
    if (spec.rfind("embedded:", 0) == 0) spec = spec.substr(9);
    label = fixture_stem(spec);
    if (auto cached = configs_.find(spec); cached != configs_.end())
      return Loaded{cached->second, label};
    if (is_shipped_fixture(spec)) {
      load = load_embedded_fixture(spec);
      if (load.ok()) {
        auto config = std::make_shared<const OrgConfig>(std::move(*load.config));
        configs_[spec] = config;  // shipped fixtures never change: parse once
        return Loaded{config, label};
      }
    } else if (!from_request) {
      load = load_fixture_file(spec);
    } else if (auto path = fixture_file_under(spec, options_.fixtures_dirs, error)) {
      load = load_fixture_file(*path);
    } else {
      return std::nullopt;
    }
  }
  if (!load.ok()) {
    error = "the fixture is invalid: " + load.error_text();
    return std::nullopt;
  }
  return Loaded{std::make_shared<const OrgConfig>(std::move(*load.config)), label};
}

std::shared_ptr<http::OrgSite> OrgRegistry::build_locked(const Loaded& loaded,
                                                         const std::string& name, bool login_paths,
                                                         std::string& error) {
  OrgWiring wiring;
  wiring.check_contracts = options_.check_contracts;
  if (options_.quiet) wiring.notice = [](const std::string&) {};
  if (!options_.data_dir.empty()) {
    wiring.data_file = durable::SavedOrgs::org_file(options_.data_dir, name);
    wiring.sync = options_.sync;
  }
  auto services = build_org(loaded.config, std::move(wiring));
  if (!services.ok()) {
    error = "cannot create the org from " + loaded.config->source_name + ":";
    for (const auto& e : services.errors()) error += " " + e.message;
    return nullptr;
  }
  auto site = http::make_org_site(name, std::string(http::kOrgsPrefix) + name, *services,
                                  server_.site_options());
  site->login_paths = login_paths;
  return site;
}

std::optional<std::string> OrgRegistry::add_command_line_org(const std::string& spec,
                                                             std::string& notice) {
  std::lock_guard lock(mu_);
  std::string name, path = spec;
  if (size_t eq = spec.find('='); eq != std::string::npos && eq > 0 && spec.find('/') > eq) {
    name = spec.substr(0, eq);
    path = spec.substr(eq + 1);
    if (!valid_name(name))
      return "--fixture " + spec + ": the org name '" + name +
             "' must be 1 to 63 letters, digits, '-' or '_', starting with a letter or digit";
  }
  std::string error;
  auto loaded = load_locked(
      path.rfind("embedded:", 0) == 0 ? nlohmann::json(path.substr(9)) : nlohmann::json(path),
      false, error);
  if (!loaded) return "--fixture " + spec + ": " + error;
  if (name.empty())
    name = server_.sites().find(loaded->label) ? next_name_locked(loaded->label) : loaded->label;
  auto site = build_locked(*loaded, name, true, error);
  if (!site) return "--fixture " + spec + ": " + error;
  if (auto clash = server_.sites().login_clash(*site)) {
    site->login_paths = false;
    notice = "org '" + name + "' is served under " + site->prefix + " only: " + *clash;
  }
  if (auto why = server_.sites().add(site)) return "--fixture " + spec + ": " + *why;
  return std::nullopt;
}

std::optional<std::string> OrgRegistry::restore_saved_orgs() {
  if (options_.data_dir.empty()) return std::nullopt;
  std::lock_guard lock(mu_);
  std::string error;
  saved_ = durable::SavedOrgs::open(options_.data_dir, error);
  if (!saved_) return error;
  for (const auto& entry : saved_->list(error)) {
    auto loaded = load_locked(entry.fixture, false, error);  // what a request once named
    if (!loaded) return "org '" + entry.name + "' (kept in " + options_.data_dir + "): " + error;
    auto site = build_locked(*loaded, entry.name, entry.login_paths, error);
    if (!site) return "org '" + entry.name + "': " + error;
    if (auto why = server_.sites().add(site)) return "org '" + entry.name + "': " + *why;
  }
  if (!error.empty()) return error;
  return std::nullopt;
}

std::optional<std::string> OrgRegistry::close_for_exit() {
  std::lock_guard lock(mu_);
  const auto sites = server_.sites().list();
  // Workers first: an attempt's outcome is queued before its org's last flush.
  for (const auto& site : sites) site->services.webhooks->stop();
  std::optional<std::string> failed;
  for (const auto& site : sites)
    if (auto db = std::dynamic_pointer_cast<durable::OrgDatabase>(site->services.org->state()))
      if (auto closed = db->close(); !closed.ok() && !failed)
        failed = closed.errors().front().message;
  saved_.reset();
  return failed;
}

Answer OrgRegistry::create(const nlohmann::json& request, const std::string& origin) {
  OrgLease lease;
  if (auto bad = registry_check_create_request(request, lease)) return *bad;
  const nlohmann::json& name_field = request.contains("name") ? request["name"] : nullptr;
  const nlohmann::json& login = request.contains("login_paths") ? request["login_paths"] : nullptr;
  if (util::over_memory_cap())
    return registry_error(
        507, "STORAGE_LIMIT_EXCEEDED",
        "fake-org holds its most memory (" + std::to_string(util::sampled_memory() >> 20) +
            " MiB resident, --max-memory " + std::to_string(util::memory_cap() >> 20) +
            " MiB): delete an org (DELETE /__admin/orgs/{name}) or reset one "
            "(POST /__admin/reset), or start fake-org with a larger --max-memory");
  std::lock_guard lock(mu_);
  if (server_.sites().size() >= options_.max_orgs)
    return registry_error(409, "ORG_LIMIT",
                          "This server already serves " + std::to_string(options_.max_orgs) +
                              " orgs (fake-org --max-orgs): delete one with DELETE "
                              "/__admin/orgs/{name}, or start fake-org with a higher --max-orgs");
  std::string name = name_field.is_string() ? name_field.get<std::string>() : std::string();
  if (!name.empty() && server_.sites().find(name))
    return registry_error(409, "DUPLICATE_VALUE",
                          "An org named '" + name + "' already exists (GET /__admin/orgs)");
  std::string error;
  auto loaded =
      load_locked(request.contains("fixture") ? request["fixture"] : nlohmann::json("default.yaml"),
                  true, error);
  if (!loaded) return registry_error(400, "INVALID_FIXTURE", error);
  if (name.empty()) name = next_name_locked(loaded->label);
  auto site = build_locked(*loaded, name, login.is_null() || login.get<bool>(), error);
  if (!site) return registry_error(400, "INVALID_FIXTURE", error);
  // Every shipped fixture has the root org's client id: unasked, a clash at
  // the login paths serves the org under its prefix only (as the command
  // line's orgs are) rather than refusing the first call anyone tries. An
  // explicit true still refuses (409, naming the client id or user).
  std::string note;
  if (login.is_null())
    if (auto clash = server_.sites().login_clash(*site)) {
      site->login_paths = false;
      note = registry_prefix_only_note(*site, *clash);
    }
  if (auto why = server_.sites().add(site)) return registry_error(409, "DUPLICATE_VALUE", *why);
  if (saved_) {
    if (auto failed = saved_->add(
            {name,
             request.contains("fixture") ? request["fixture"] : nlohmann::json("default.yaml"),
             site->login_paths})) {
      server_.sites().remove(name);
      return registry_error(503, "SERVER_UNAVAILABLE",
                            "The org could not be kept in the data directory: " + *failed);
    }
  }
  if (lease.ttl) reaper_.schedule(name, lease.expires);
  leases_[name] = lease;
  nlohmann::json body = site_json(*site, origin, false);
  body.update(lease_json(lease));
  body["connected_apps"] = connected_apps_json(site->services.org->config());
  if (!note.empty()) body["note"] = note;
  return Answer{201, std::move(body)};
}

Answer OrgRegistry::list(const std::string& origin) const {
  nlohmann::json orgs = nlohmann::json::array();
  const auto& root = server_.sites().root();
  std::lock_guard lock(mu_);
  for (const auto& site : server_.sites().list()) {
    nlohmann::json org = site_json(*site, origin, site == root);
    auto lease = leases_.find(site->name);
    // Orgs of the command line are the server's own, as old as it.
    org.update(lease_json(lease != leases_.end() ? lease->second
                                                 : OrgLease{"the command line", started_, {}, {}}));
    orgs.push_back(std::move(org));
  }
  return Answer{200, {{"orgs", std::move(orgs)}, {"max_orgs", options_.max_orgs}}};
}

std::shared_ptr<http::OrgSite> OrgRegistry::remove_locked(const std::string& name,
                                                          std::optional<std::string>& failed) {
  auto site = server_.sites().remove(name);
  if (!site) return nullptr;
  leases_.erase(name);
  reaper_.cancel(name);
  // Deleting an org drops its queued webhooks by design: the notice meant
  // for a server shutting down would be noise, once per org, while it runs.
  site->services.webhooks->set_notice([](const std::string&) {});
  if (saved_) failed = saved_->remove(name);
  return site;
}

void OrgRegistry::expire(const std::string& name) {
  std::shared_ptr<http::OrgSite> site;  // let go after the lock: its workers stop then
  std::lock_guard lock(mu_);
  std::optional<std::string> failed;
  site = remove_locked(name, failed);
  if (site && !options_.quiet)
    std::fprintf(stderr, "fake-org: org '%s' deleted: its time to live ran out%s%s\n", name.c_str(),
                 failed ? "; its data could not be deleted: " : "", failed ? failed->c_str() : "");
}

Answer OrgRegistry::remove(const std::string& name) {
  std::shared_ptr<http::OrgSite> site;  // let go after the lock: its workers stop then
  std::lock_guard lock(mu_);
  const auto& root = server_.sites().root();
  if (root && root->name == name)
    return registry_error(409, "CANNOT_DELETE",
                          "Org '" + name + "' is the first org, served at the root: it stays");
  std::optional<std::string> failed;
  site = remove_locked(name, failed);
  if (!site)
    return registry_error(404, "NOT_FOUND",
                          "No org named '" + name + "' (GET /__admin/orgs lists them)");
  if (failed)
    return registry_error(503, "SERVER_UNAVAILABLE",
                          "Org '" + name +
                              "' is no longer served, but its data could not be "
                              "deleted: " +
                              *failed);
  return Answer{200, {{"deleted", name}}};
}

}  // namespace fake_org::app
