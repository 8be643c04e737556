// The sandbox target: a real org, reached only through its OAuth token
// endpoint and the API, as a customer's integration reaches it. No admin API,
// so scenarios with psp or clock steps are skipped. Configured by a small YAML
// file whose secrets come from environment variables:
//
//   instance_url: https://example--uat.sandbox.my.salesforce.com
//   api_path: /services/apexrest/cpm/v2        # optional
//   api_version: "59.0"                        # optional: the REST data API's, for query steps
//   oauth:
//     grant: refresh_token                     # or client_credentials
//     token_url: https://test.salesforce.com/services/oauth2/token   # optional
//     client_id: ${env:ORG_CLIENT_ID}
//     client_secret: ${env:ORG_CLIENT_SECRET}
//     refresh_token: ${env:ORG_REFRESH_TOKEN}
//   ca_file: private-ca.pem                    # optional, beside this file
//   webhook_url: https://tunnel.example.org    # optional public base of the receiver
//   profile: lenient                           # optional (strict | lenient)
//   fixture: default.yaml                      # optional: the fixture this org resembles;
//                                              # scenarios for other fixtures are skipped ("any":
//                                              none are)
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "eval/interpolate.h"
#include "net/curl.h"
#include "scenario/load_context.h"
#include "targets/target.h"
#include "yaml/yaml_input.h"

namespace runner {
namespace {

struct SandboxConfig {
  SessionConfig session;
  OAuthGrant grant;
  contracts::Profile profile = contracts::Profile::kLenient;
  std::string fixture = "default.yaml";
  // The OAuth values as written (${env:NAME}), for the printed reproduction.
  std::string client_id_text, client_secret_text, refresh_token_text;
};

// The line of a failure report's reproduction that takes a token as the
// runner does, naming the environment variables the secrets come from.
std::string sandbox_token_line(const SandboxConfig& c) {
  std::vector<std::string> fields = {env_shell_word("client_id=" + c.client_id_text),
                                     env_shell_word("client_secret=" + c.client_secret_text)};
  if (c.grant.grant_type == "refresh_token")
    fields.push_back(env_shell_word("refresh_token=" + c.refresh_token_text));
  return token_line(c.grant.token_url, c.grant.grant_type, fields, c.session.tls.ca_file);
}

YAML::Node parse_config_file(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw TargetError("cannot read the sandbox configuration " + file);
  std::stringstream ss;
  ss << in.rdbuf();
  common::YamlDocument doc = common::load_yaml_document(ss.str());
  if (doc.error)
    throw TargetError(file + ":" + std::to_string(doc.error->line) + ":" +
                      std::to_string(doc.error->column) + ": " + doc.error->message);
  return doc.root;
}

// The configuration's strings: only environment references are allowed
// here, and secrets must be one. A value in error is reported and read as "".
class ConfigValues {
 public:
  explicit ConfigValues(LoadContext& ctx) : ctx_(ctx), interp_(none_, env_only_) {}

  // `text`: where to keep the value as written.
  std::string read(const YAML::Node& n, const std::string& what, bool secret,
                   std::string* text = nullptr) {
    auto s = ctx_.string(n, what);
    if (!s) return "";
    if (text) *text = *s;
    if (secret && s->find("${env:") == std::string::npos) {
      ctx_.error(n, what + " is a secret: write it as ${env:NAME} and set NAME in the environment");
      return "";
    }
    try {
      return interp_.text(*s);
    } catch (const InterpolationError& e) {
      ctx_.error(n, what + ": " + e.what());
      return "";
    }
  }

 private:
  LoadContext& ctx_;
  Variables none_;
  Builtins env_only_;
  Interpolator interp_;
};

void read_instance_url(LoadContext& ctx, ConfigValues& values, const YAML::Node& root,
                       SessionConfig& session) {
  if (root["instance_url"])
    session.instance_url = values.read(root["instance_url"], "instance_url", false);
  else
    ctx.error(root, "instance_url is required (https://<your org's domain>)");
  while (!session.instance_url.empty() && session.instance_url.back() == '/')
    session.instance_url.pop_back();
  if (!session.instance_url.empty() && !split_url(session.instance_url))
    ctx.error(root["instance_url"], "instance_url must be an http(s) URL");
}

// Where the org is and how it is reached: URLs, TLS, profile and fixture.
void read_org(LoadContext& ctx, ConfigValues& values, const YAML::Node& root,
              const TargetOptions& options, SandboxConfig& c) {
  read_instance_url(ctx, values, root, c.session);
  std::string api_path = "/services/apexrest/cpm/v2";
  if (root["api_path"]) api_path = values.read(root["api_path"], "api_path", false);
  c.session.api_base = c.session.instance_url + api_path;
  if (root["api_version"]) {
    c.session.api_version = values.read(root["api_version"], "api_version", false);
    static const std::regex version(R"(^[0-9]{2}\.0$)");
    if (!std::regex_match(c.session.api_version, version))
      ctx.error(root["api_version"], "api_version is a REST API version such as 59.0");
  }
  if (root["webhook_url"])
    c.session.webhook_public_base = values.read(root["webhook_url"], "webhook_url", false);
  if (root["ca_file"]) {
    std::string ca = values.read(root["ca_file"], "ca_file", false);
    c.session.tls.ca_file = (std::filesystem::path(ctx.base_dir()) / ca).string();
  }
  if (!options.ca_file.empty()) c.session.tls.ca_file = options.ca_file;
  if (root["profile"]) {
    auto p = contracts::profile_from_string(values.read(root["profile"], "profile", false));
    if (p)
      c.profile = *p;
    else
      ctx.error(root["profile"], "profile is strict or lenient");
  }
  if (root["fixture"]) c.fixture = values.read(root["fixture"], "fixture", false);
}

// The client's id and secret, and the refresh token its grant needs.
void read_credentials(LoadContext& ctx, ConfigValues& values, const YAML::Node& oauth,
                      SandboxConfig& c) {
  if (oauth["client_id"])
    c.grant.client_id =
        values.read(oauth["client_id"], "oauth.client_id", false, &c.client_id_text);
  else
    ctx.error(oauth, "oauth.client_id is required");
  if (oauth["client_secret"])
    c.grant.client_secret =
        values.read(oauth["client_secret"], "oauth.client_secret", true, &c.client_secret_text);
  else
    ctx.error(oauth, "oauth.client_secret is required");
  if (c.grant.grant_type == "refresh_token") {
    if (oauth["refresh_token"])
      c.grant.refresh_token =
          values.read(oauth["refresh_token"], "oauth.refresh_token", true, &c.refresh_token_text);
    else
      ctx.error(oauth, "oauth.refresh_token is required for the refresh_token grant");
  }
}

void read_oauth(LoadContext& ctx, ConfigValues& values, const YAML::Node& root, SandboxConfig& c) {
  const YAML::Node oauth = root["oauth"];
  if (!oauth) {
    ctx.error(root, "oauth is required (grant, client_id, client_secret, refresh_token)");
    return;
  }
  if (!ctx.expect_map(oauth, "oauth")) return;
  ctx.check_keys(oauth, {"grant", "token_url", "client_id", "client_secret", "refresh_token"},
                 "oauth");
  c.grant.grant_type = oauth["grant"] ? values.read(oauth["grant"], "oauth.grant", false) : "";
  if (c.grant.grant_type != "refresh_token" && c.grant.grant_type != "client_credentials")
    ctx.error(oauth["grant"] ? oauth["grant"] : oauth,
              "oauth.grant is refresh_token or client_credentials");
  c.grant.token_url = oauth["token_url"] ? values.read(oauth["token_url"], "oauth.token_url", false)
                                         : c.session.instance_url + "/services/oauth2/token";
  read_credentials(ctx, values, oauth, c);
}

SandboxConfig read_config(const std::string& file, const TargetOptions& options) {
  const YAML::Node root = parse_config_file(file);
  const std::string dir = std::filesystem::path(file).parent_path().string();
  LoadContext ctx(file, dir.empty() ? "." : dir);
  if (!ctx.expect_map(root, "the sandbox configuration")) {
    throw TargetError(ctx.errors().front().str());
  }
  ctx.check_keys(root,
                 {"instance_url", "api_path", "api_version", "oauth", "ca_file", "webhook_url",
                  "profile", "fixture"},
                 "the sandbox configuration");
  ConfigValues values(ctx);
  SandboxConfig c;
  read_org(ctx, values, root, options, c);
  read_oauth(ctx, values, root, c);
  if (!ctx.errors().empty()) {
    std::string all;
    for (const auto& e : ctx.errors()) all += (all.empty() ? "" : "\n") + e.str();
    throw TargetError(all);
  }
  // A real org outlives the run, but the runner's token is never printed.
  Reproduction again;
  again.instance_url = c.session.instance_url;
  again.setup = sandbox_token_line(c);
  c.session.reproduce = again;
  return c;
}

class SandboxTarget final : public Target {
 public:
  SandboxTarget(std::string file, const TargetOptions& options)
      : file_(std::move(file)), config_(read_config(file_, options)) {
    tokens_ = std::make_shared<TokenProvider>(config_.grant, config_.session.tls);
  }
  std::string describe() const override { return "sandbox " + config_.session.instance_url; }
  bool parallel() const override { return true; }
  contracts::Profile default_profile() const override { return config_.profile; }
  std::vector<LoadError> prepare(const std::vector<const Scenario*>&) override { return {}; }

  std::optional<std::string> fixture_mismatch(const Scenario& s) const override {
    // A real org has one configuration; scenarios written for another cannot pass on it.
    const std::string wanted = s.fixture.empty() ? "default.yaml" : s.fixture;
    if (config_.fixture != "any" && std::filesystem::path(wanted).filename() !=
                                        std::filesystem::path(config_.fixture).filename())
      return "needs fixture " + wanted + "; " + file_ + " describes the org as " + config_.fixture +
             " (its fixture: key)";
    return std::nullopt;
  }

  std::optional<std::string> skip_reason(const Scenario& s) const override {
    if (auto why = fixture_mismatch(s)) return why;
    auto i = s.first_admin_step();
    if (!i) return std::nullopt;
    const Step& step = s.steps[*i];
    return "step " + std::to_string(*i + 1) + " (" + to_string(step.kind) + ", " + step.pos.str() +
           ") needs the fake's admin API, which a real org does not have";
  }

  std::unique_ptr<OrgSession> open(const Scenario&) override {
    return std::make_unique<OrgSession>(config_.session, tokens_);
  }

 private:
  std::string file_;
  SandboxConfig config_;
  std::shared_ptr<TokenProvider> tokens_;  // one token for the run, shared by its scenarios
};

}  // namespace

SandboxUpstream read_sandbox_upstream(const std::string& config_file,
                                      const TargetOptions& options) {
  SandboxConfig c = read_config(config_file, options);
  return {c.session.instance_url, c.session.api_base.substr(c.session.instance_url.size()), c.grant,
          c.session.tls};
}

std::unique_ptr<Target> make_sandbox_target(const std::string& config_file,
                                            const TargetOptions& options) {
  return std::make_unique<SandboxTarget>(config_file, options);
}

}  // namespace runner
