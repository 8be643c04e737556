#include "commands/cli/init_command.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <CLI/CLI.hpp>

#include "net/curl.h"

namespace runner {
namespace fs = std::filesystem;
namespace {

// "@RUNNER@" and "@DOCS@" in the templates below become the binary as it was
// invoked and where the format's documentation is on this machine.
const char* const kInitScenarioTemplate =
    R"(# Your first scenario: a one-time payment, then its read.
# Run it (in this folder): @RUNNER@ first_scenario.yaml --verbose   (the embedded fake org)
#                          @RUNNER@ first_scenario.yaml --target sandbox.yaml   (your sandbox)
# A folder runs every scenario in it; sandbox.yaml is recognised as a target
# and left out. The format: @DOCS@
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

const char* const kInitSandboxTemplate = R"(# A real org (a sandbox) as a target:
#   @RUNNER@ first_scenario.yaml --target sandbox.yaml
# Every key: "Targets" in @DOCS@
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

std::string init_replace_all(std::string text, const std::string& what, const std::string& with) {
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
    text.replace(at, what.size(), with);
  return text;
}

std::string init_fill(const char* tmpl, const std::string& program) {
  return init_replace_all(init_replace_all(tmpl, "@RUNNER@", program), "@DOCS@",
                          scenario_docs_path());
}

// An OS error as a person reads it in a sentence: "permission denied".
std::string init_reason(const std::error_code& ec) {
  std::string why = ec.message();
  if (!why.empty()) why[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(why[0])));
  return why;
}

std::string init_shell_word(const std::string& s) {
  const bool plain = !s.empty() && s.find_first_not_of(
                                       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789/._-+") == std::string::npos;
  return plain ? s : shell_quote(s);
}

bool init_write_file(const fs::path& path, const std::string& text, std::ostream& err) {
  errno = 0;
  std::ofstream f(path, std::ios::binary);
  if (f) f << text;
  if (f) f.close();
  if (f) return true;
  const int why = errno ? errno : EIO;  // a stream that failed without a system error: I/O
  err << "cannot write " << path.string() << ": "
      << init_reason(std::error_code(why, std::generic_category())) << "\n";
  return false;
}

}  // namespace

std::string scenario_docs_path() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path bin = self.parent_path();
    // Installed: <prefix>/bin beside <prefix>/share/fake-crm-org; in a clone:
    // <repo>/build*/bin.
    for (const fs::path& candidate :
         {bin / "../share/fake-crm-org/scenarios/README.md", bin / "../../scenarios/README.md"})
      if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal().string();
  }
  return "scenarios/README.md of the fake-crm-org project";
}

std::string init_scenario_yaml(const std::string& program) {
  return init_fill(kInitScenarioTemplate, program);
}

std::string init_sandbox_yaml(const std::string& program) {
  return init_fill(kInitSandboxTemplate, program);
}

CLI::App* add_init_command(CLI::App& app, InitOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "init", "Write a commented first scenario and a sandbox.yaml template into DIR");
  cmd->add_option("dir", o.dir, "Folder to write into (created if missing)")->capture_default_str();
  return cmd;
}

int init_command(const InitOptions& o, std::ostream& out, std::ostream& err) {
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
  if (ec) {
    err << "cannot create the folder " << dir.string() << ": " << init_reason(ec) << "\n";
    return 2;
  }
  const std::string program = o.program.empty() ? "scenario-runner" : o.program;
  // The files' comments are read from anywhere: a relative path made absolute.
  const std::string in_files = program.find('/') == std::string::npos
                                   ? program
                                   : fs::absolute(program).lexically_normal().string();
  for (const auto& [path, text] : {std::pair{scenario, init_scenario_yaml(in_files)},
                                   {sandbox, init_sandbox_yaml(in_files)}}) {
    if (!init_write_file(path, text, err)) return 2;
    out << "wrote " << path.string() << "\n";
  }
  const std::string run = init_shell_word(program) + " " + init_shell_word(dir.string());
  out << "next: " << run << " --verbose\n"
      << "  on your sandbox: " << run << " --target " << init_shell_word(sandbox.string())
      << "  (export its ${env:...} secrets first)\n"
      << "  the format: " << scenario_docs_path() << "\n";
  return 0;
}

}  // namespace runner
