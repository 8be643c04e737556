#include "targets/fixture_cache.h"

#include <filesystem>

#include "fixture/fixture_loader.h"
#include "net/curl.h"

namespace runner {

std::string FixtureCache::key(const Scenario& s) {
  if (!s.fixture_path.empty()) return s.fixture_path;
  return s.fixture.empty() ? "default.yaml" : s.fixture;
}

std::vector<LoadError> FixtureCache::load_all(const std::vector<const Scenario*>& scenarios) {
  std::vector<LoadError> errors;
  std::map<std::string, std::string> failed;  // key -> error text
  for (const Scenario* s : scenarios) {
    const std::string k = key(*s);
    if (!configs_.count(k) && !failed.count(k)) {
      fake_org::FixtureLoad load = s->fixture_path.empty() ? fake_org::load_embedded_fixture(k)
                                                           : fake_org::load_fixture_file(k);
      if (load.ok()) {
        configs_.emplace(k, std::move(*load.config));
      } else {
        std::string text = load.error_text();
        if (s->fixture_path.empty()) {
          std::string names;
          for (const auto& n : fake_org::embedded_fixture_names())
            names += (names.empty() ? "" : ", ") + n;
          text += "\n(embedded fixtures: " + names + "; a file path is relative to the scenario)";
        }
        failed.emplace(k, text);
      }
    }
    auto f = failed.find(k);
    if (f != failed.end())
      errors.push_back({s->fixture_pos.line ? s->fixture_pos : s->pos,
                        "fixture '" + k + "' does not load:\n" + f->second});
  }
  return errors;
}

const fake_org::OrgConfig* FixtureCache::get(const Scenario& s) const {
  auto it = configs_.find(key(s));
  return it == configs_.end() ? nullptr : &it->second;
}

namespace {

// "embedded:default.yaml" and "fixtures/default.yaml" both give "default.yaml".
std::string fixture_file_name(const std::string& source) {
  const std::string prefix = "embedded:";
  const std::string bare = source.rfind(prefix, 0) == 0 ? source.substr(prefix.size()) : source;
  return std::filesystem::path(bare).filename().string();
}

}  // namespace

FixtureLineage fixture_lineage(const std::string& fixture) {
  FixtureLineage out;
  const std::string prefix = "embedded:";
  std::error_code ec;
  fake_org::FixtureLoad load;
  if (fixture.rfind(prefix, 0) != 0 && std::filesystem::is_regular_file(fixture, ec)) {
    out.fixture = std::filesystem::path(fixture).lexically_normal().string();
    out.file = true;
    load = fake_org::load_fixture_file(out.fixture);
  } else {
    out.fixture = fixture.rfind(prefix, 0) == 0 ? fixture.substr(prefix.size()) : fixture;
    load = fake_org::load_embedded_fixture(out.fixture);
  }
  if (!load.ok()) {
    out.names = {fixture_file_name(out.fixture)};
    out.error = load.error_text();
    if (!out.file) {
      std::string names;
      for (const auto& n : fake_org::embedded_fixture_names())
        names += (names.empty() ? "" : ", ") + n;
      out.error += "\n(neither a file nor a shipped fixture: " + names + ")";
    }
    return out;
  }
  for (const auto& source : load.config->extends_chain)
    out.names.push_back(fixture_file_name(source));
  out.api_version = load.config->org.api_version;
  return out;
}

std::string fixture_token_line(const fake_org::OrgConfig& config, const std::string& instance_url,
                               const std::string& ca_file) {
  if (config.auth.connected_apps.empty()) return "";
  const auto& app = config.auth.connected_apps.front();
  return token_line(instance_url + "/services/oauth2/token", "client_credentials",
                    {shell_quote("client_id=" + app.client_id),
                     shell_quote("client_secret=" + app.client_secret)},
                    ca_file);
}

std::shared_ptr<TokenProvider> fixture_client_credentials(const fake_org::OrgConfig& config,
                                                          const std::string& instance_url,
                                                          const TlsOptions& tls) {
  if (config.auth.connected_apps.empty())
    throw TargetError("fixture " + config.source_name +
                      " has no connected app, so the runner cannot get a token");
  const auto& app = config.auth.connected_apps.front();
  return std::make_shared<TokenProvider>(
      OAuthGrant{instance_url + "/services/oauth2/token", "client_credentials", app.client_id,
                 app.client_secret, ""},
      tls);
}

}  // namespace runner
