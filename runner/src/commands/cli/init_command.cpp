#include "commands/cli/init_command.h"

#include <filesystem>
#include <fstream>

#include <CLI/CLI.hpp>

namespace runner {

const char* const kInitScenarioYaml = R"(# Your first scenario: a one-time payment, then its read.
# Run it:   scenario-runner first_scenario.yaml --verbose       (the embedded fake org)
#           scenario-runner first_scenario.yaml --target sandbox.yaml   (your sandbox)
# The format: scenarios/README.md of the project (installed under
# /usr/share/doc/fake-crm-org/ with the package).
name: one-time payment and its read
description: POST /PaymentIntent with a new payer, then GET /PaymentIntent/{ID}.
tags: [first]
fixture: default.yaml          # the org configuration of the embedded fake
vars:
  email: "first-${uuid}@example.org"   # ${uuid}: new each run, so each run is a new payer
steps:
  # A request is relative to the API base (.../services/apexrest/cpm/v2); the
  # runner takes the OAuth token for you.
  - request: GET /PaymentMethods
    expect:
      status: 200
      json: {PaymentMethods: {$contains: {Name: CreditCard}}}   # a subset is enough

  - name: create the payment intent
    request:
      method: POST
      path: /PaymentIntent
      json:
        SuccessURL: https://shop.example/thanks
        FailureURL: https://shop.example/sorry
        Payer: {Contact: {CrmFields: {FirstName: Ada, LastName: Lovelace, Email: "${email}"}}}
        OneTime: {Amount: 25}
        PaymentMethod: {Name: CreditCard}
    expect:
      status: 200
      json:
        Id: {$regex: "^pi_"}          # matchers: $regex, $type, $contains, ...
    capture:
      pi: $.Id                        # JSONPath into the response; later steps use ${pi}

  - request: GET /PaymentIntent/${pi}
    expect:
      status: 200
      json: {Id: "${pi}"}

  # On the fake org only (a sandbox skips a scenario with these), pay on the
  # hosted page and wait for the webhook; add `WebhookURL: ${webhook_url}` and
  # `capture: {redirect: $.RedirectURL}` to the request above first:
  # - psp: {redirect: "${redirect}", outcome: success}
  # - await_webhook:
  #     type: installment.status_change
  #     match: {data: {PaymentIntentId: "${pi}", Status: Collected}}
)";

const char* const kInitSandboxYaml = R"(# A real org (a sandbox) as a target:
#   scenario-runner first_scenario.yaml --target sandbox.yaml
# Secrets never go in this file: each ${env:NAME} is read from the environment
# (export ORG_CLIENT_ID=... ORG_CLIENT_SECRET=... ORG_REFRESH_TOKEN=...).
instance_url: https://example--uat.sandbox.my.salesforce.com   # your org's My Domain URL
# api_path: /services/apexrest/cpm/v2     # the default
# api_version: "59.0"                     # the REST data API's, for query steps
oauth:
  grant: refresh_token                    # or client_credentials (no refresh_token then)
  token_url: https://test.salesforce.com/services/oauth2/token
  client_id: ${env:ORG_CLIENT_ID}
  client_secret: ${env:ORG_CLIENT_SECRET}
  refresh_token: ${env:ORG_REFRESH_TOKEN}
# ca_file: private-ca.pem                 # a private CA, beside this file
# webhook_url: https://tunnel.example.org # a public URL that reaches the runner's receiver
# profile: lenient                        # contract profile (strict | lenient); lenient by default
fixture: default.yaml                     # the fixture this org resembles: scenarios for
                                          # other fixtures are skipped
)";

CLI::App* add_init_command(CLI::App& app, InitOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "init", "Write a commented first scenario and a sandbox.yaml template into DIR");
  cmd->add_option("dir", o.dir, "Folder to write into (created if missing)")->capture_default_str();
  return cmd;
}

int init_command(const InitOptions& o, std::ostream& out, std::ostream& err) {
  namespace fs = std::filesystem;
  const fs::path dir(o.dir);
  const fs::path scenario = dir / "first_scenario.yaml";
  const fs::path sandbox = dir / "sandbox.yaml";
  for (const fs::path& p : {scenario, sandbox}) {
    if (fs::exists(p)) {
      err << p.string() << " exists already; nothing was written\n";
      return 2;
    }
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (const auto& [path, text] :
       {std::pair{scenario, kInitScenarioYaml}, {sandbox, kInitSandboxYaml}}) {
    std::ofstream f(path, std::ios::binary);
    f << text;
    if (!f) {
      err << "cannot write " << path.string() << "\n";
      return 2;
    }
    out << "wrote " << path.string() << "\n";
  }
  out << "next: scenario-runner " << scenario.string() << " --verbose\n";
  return 0;
}

}  // namespace runner
