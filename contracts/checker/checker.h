#pragma once
// The contract checker: maps a request or response (method + path + status) or
// a webhook to its JSON Schema and validates a body against it, reporting every
// violation with where it is, which schema keyword failed, and what was
// expected. See contracts/README.md for the schemas and the two profiles.
//
// Thread safety: every const member may be called from any number of threads
// at once. A Checker made with Compile::kOnFirstUse (the embedded one)
// compiles each message schema on its first use, once, under that schema's
// std::once_flag; nothing else changes after construction.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace contracts {

namespace core {
class CompiledSchema;
}

// strict: exactly what the spec (and the fake's documented choices) state;
// lenient: also the variants real orgs are known to send (contracts/README.md).
enum class Profile { kStrict, kLenient };
// When a Checker compiles its message schemas: all while it is made (errors
// thrown there), or each on its first use (errors as violations).
enum class Compile { kAtOnce, kOnFirstUse };
const char* to_string(Profile profile);
std::optional<Profile> profile_from_string(std::string_view name);

struct Violation {
  std::string pointer;          // RFC 6901 pointer into the body; "" is the whole body
  std::string schema_location;  // "<schema file>#<pointer to the keyword>", "" if unknown
  std::string keyword;          // "type", "required", "enum", ...; "status" for a status code
  std::string expected;
  std::string actual;
  std::string message;  // one line a person can act on
};

struct CheckResult {
  std::string schema;  // the schema validated against; "" when none applies
  std::vector<Violation> violations;
  // False when no schema applies: either outside the contract (no violation,
  // e.g. an admin path) or a status the contract does not allow (a violation).
  bool matched_schema = true;

  bool ok() const { return violations.empty(); }
  // Multi-line, one violation a line; "schema <name>: ok" when ok.
  std::string report() const;
};

class Checker {
 public:
  // The schemas compiled into the binary; one instance per profile, built on
  // first use. Throws std::runtime_error if a schema is no JSON or has the
  // wrong "$id". Each schema is compiled when first validated against, so a
  // process that checks a few bodies does not pay for them all; one that does
  // not compile (the contracts tests compile every one) gives a violation
  // with keyword "schema" instead of throwing in a request's thread.
  static std::shared_ptr<const Checker> embedded(Profile profile);
  // The schemas of a contracts/schemas-like folder (for trying edits without a
  // rebuild). Throws std::runtime_error on unreadable or broken schemas.
  static std::shared_ptr<const Checker> from_directory(const std::string& dir, Profile profile);
  // The same from files already in memory: path relative to the schemas
  // folder -> JSON text. Both compile every schema at once unless told
  // otherwise, so an edited folder's mistakes are reported before anything
  // is checked.
  static std::shared_ptr<const Checker> from_files(const std::map<std::string, std::string>& files,
                                                   Profile profile,
                                                   Compile when = Compile::kAtOnce);

  ~Checker();
  Checker(const Checker&) = delete;
  Checker& operator=(const Checker&) = delete;

  Profile profile() const { return profile_; }
  // Names of every message schema (file stems of the schemas folder's top level).
  std::vector<std::string> schema_names() const;

  // Paths may be full ("https://host/services/apexrest/cpm/v2/Installment/a0B?x=1"),
  // absolute ("/services/apexrest/cpm/v2/PaymentMethods", "/services/oauth2/token")
  // or relative to the API base ("/PaymentMethods"); query strings are ignored.
  std::optional<std::string> response_schema(std::string_view method, std::string_view path,
                                             int status) const;
  std::optional<std::string> request_schema(std::string_view method, std::string_view path) const;

  // An unknown schema name gives one violation with keyword "schema".
  CheckResult validate(const std::string& schema_name, const nlohmann::json& body) const;
  // Outside the contract (no route): matched_schema false and ok(). A route of
  // the contract with a status it does not allow: one violation, keyword "status".
  // An empty HTTP body is passed as null.
  CheckResult check_response(std::string_view method, std::string_view path, int status,
                             const nlohmann::json& body) const;
  // Requests without a body schema (GET, unknown paths): matched_schema false, ok().
  CheckResult check_request(std::string_view method, std::string_view path,
                            const nlohmann::json& body) const;
  // By body["type"]; a missing or unknown type is reported against "webhook".
  CheckResult check_webhook(const nlohmann::json& body) const;

 private:
  struct Schema;  // one message schema, compiled once
  using Schemas = std::map<std::string, std::unique_ptr<Schema>>;
  Checker(Profile profile, Schemas schemas);
  static Schemas read_schemas(const std::map<std::string, std::string>& files, Profile profile);
  // Null when the schema does not compile (the reason in s.error).
  const core::CompiledSchema* compiled(const Schema& s) const;

  Profile profile_;
  Schemas schemas_;
};

}  // namespace contracts
