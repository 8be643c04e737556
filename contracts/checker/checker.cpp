#include "checker.h"

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "contracts_embedded.h"
#include "core.h"
#include "routes.h"

namespace contracts {
namespace {

using nlohmann::json;

// Every schema's "$id" is this plus its name; a profile folder's files take
// the name they would have one level up (schemas/strict/records.json is
// records.json), which is how a profile overrides only what differs.
constexpr const char* kBaseUri = "https://schemas.fake-crm-org.invalid/cpm/v2/";

struct Document {
  json content;
  std::string file;  // path under the schemas folder, for locations in reports
};

std::map<std::string, Document> overlay(const std::map<std::string, std::string>& files,
                                        Profile profile) {
  const std::string own = std::string(to_string(profile)) + "/";
  const std::string other =
      std::string(to_string(profile == Profile::kStrict ? Profile::kLenient : Profile::kStrict)) +
      "/";
  std::map<std::string, Document> docs;
  for (const auto& [file, text] : files) {
    if (file.rfind(other, 0) == 0) continue;
    bool profiled = file.rfind(own, 0) == 0;
    std::string name = profiled ? file.substr(own.size()) : file;
    auto existing = docs.find(name);
    if (existing != docs.end() && !profiled) continue;  // the profile's file wins
    Document doc;
    doc.file = file;
    try {
      doc.content = json::parse(text);
    } catch (const json::parse_error& e) {
      throw core::SchemaError("contracts/schemas/" + file + ": " + e.what());
    }
    const std::string id = kBaseUri + name;
    if (!doc.content.is_object() || doc.content.value("$id", "") != id) {
      throw core::SchemaError("contracts/schemas/" + file + ": \"$id\" must be \"" + id +
                              "\" so that other tools resolve references as the checker does");
    }
    docs[name] = std::move(doc);
  }
  return docs;
}

std::string join_messages(const std::vector<Violation>& violations) {
  std::string out;
  for (const Violation& v : violations) {
    out += "\n  " + v.message;
    if (!v.schema_location.empty()) out += " [" + v.schema_location + "]";
  }
  return out;
}

}  // namespace

const char* to_string(Profile profile) {
  return profile == Profile::kStrict ? "strict" : "lenient";
}

std::optional<Profile> profile_from_string(std::string_view name) {
  if (name == "strict") return Profile::kStrict;
  if (name == "lenient") return Profile::kLenient;
  return std::nullopt;
}

std::string CheckResult::report() const {
  if (schema.empty() && violations.empty()) return "no schema applies (outside the contract)";
  std::string head = schema.empty() ? std::string("contract") : "schema " + schema;
  if (violations.empty()) return head + ": ok";
  return head + ": " + std::to_string(violations.size()) +
         (violations.size() == 1 ? " violation" : " violations") + join_messages(violations);
}

struct Checker::Schema {
  json root;
  std::string uri;
  core::Fetcher fetch;
  core::UriDisplay display;
  mutable std::once_flag once;
  // Set once, under `once`: the compiled schema, or why it does not compile.
  mutable std::shared_ptr<const core::CompiledSchema> compiled;
  mutable std::string error;
};

Checker::Checker(Profile profile, Schemas schemas)
    : profile_(profile), schemas_(std::move(schemas)) {}

Checker::~Checker() = default;

Checker::Schemas Checker::read_schemas(const std::map<std::string, std::string>& files,
                                       Profile profile) {
  auto docs = std::make_shared<const std::map<std::string, Document>>(overlay(files, profile));
  core::Fetcher fetch = [docs](const std::string& uri) -> std::optional<json> {
    if (uri.rfind(kBaseUri, 0) != 0) return std::nullopt;
    auto it = docs->find(uri.substr(std::string(kBaseUri).size()));
    if (it == docs->end()) return std::nullopt;
    return it->second.content;
  };
  core::UriDisplay display = [docs](const std::string& uri) {
    if (uri.rfind(kBaseUri, 0) != 0) return uri;
    auto it = docs->find(uri.substr(std::string(kBaseUri).size()));
    return it == docs->end() ? uri : it->second.file;
  };
  Schemas schemas;
  for (const auto& [name, doc] : *docs) {
    // Message schemas are the top-level files; common/ and the profile parts
    // (records.json, ...) are only referenced.
    if (name.find('/') != std::string::npos || files.count(name) == 0) continue;
    auto schema = std::make_unique<Schema>();
    schema->root = doc.content;
    schema->uri = kBaseUri + name;
    schema->fetch = fetch;
    schema->display = display;
    schemas[name.substr(0, name.rfind(".json"))] = std::move(schema);
  }
  if (schemas.empty()) throw core::SchemaError("no message schemas found");
  return schemas;
}

const core::CompiledSchema* Checker::compiled(const Schema& s) const {
  // Nothing escapes the once-call: a schema that does not compile is
  // reported by every check that uses it, from whichever thread, and is not
  // compiled again.
  std::call_once(s.once, [&s] {
    try {
      s.compiled = core::CompiledSchema::compile(s.root, s.uri, s.fetch, s.display);
    } catch (const std::exception& e) {
      s.error = e.what();
    }
  });
  return s.compiled.get();
}

std::shared_ptr<const Checker> Checker::from_files(const std::map<std::string, std::string>& files,
                                                   Profile profile, Compile when) {
  std::shared_ptr<const Checker> checker(new Checker(profile, read_schemas(files, profile)));
  if (when == Compile::kOnFirstUse) return checker;
  for (const auto& entry : checker->schemas_)
    if (!checker->compiled(*entry.second)) throw core::SchemaError(entry.second->error);
  return checker;
}

std::shared_ptr<const Checker> Checker::embedded(Profile profile) {
  // Locking rule: `mutex` guards `cache`; each Checker guards its own compiling.
  static std::mutex mutex;
  static std::shared_ptr<const Checker> cache[2];
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[profile == Profile::kStrict ? 0 : 1];
  if (!slot) {
    std::map<std::string, std::string> files;
    for (const auto& [name, text] : embedded_files()) files.emplace(name, std::string(text));
    slot = from_files(files, profile, Compile::kOnFirstUse);
  }
  return slot;
}

std::shared_ptr<const Checker> Checker::from_directory(const std::string& dir, Profile profile) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> files;
  if (!fs::is_directory(dir)) throw core::SchemaError(dir + ": not a directory");
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) throw core::SchemaError(entry.path().string() + ": cannot read");
    files.emplace(fs::relative(entry.path(), dir).generic_string(), text.str());
  }
  return from_files(files, profile);
}

std::vector<std::string> Checker::schema_names() const {
  std::vector<std::string> names;
  for (const auto& entry : schemas_) names.push_back(entry.first);
  return names;
}

std::optional<std::string> Checker::response_schema(std::string_view method, std::string_view path,
                                                    int status) const {
  return routes::response_schema(routes::match(method, path), status, profile_);
}

std::optional<std::string> Checker::request_schema(std::string_view method,
                                                   std::string_view path) const {
  routes::Match m = routes::match(method, path);
  if (!m.route || m.route->request_schema.empty()) return std::nullopt;
  return m.route->request_schema;
}

CheckResult Checker::validate(const std::string& schema_name, const nlohmann::json& body) const {
  CheckResult result;
  result.schema = schema_name;
  auto it = schemas_.find(schema_name);
  if (it == schemas_.end()) {
    result.matched_schema = false;
    std::string known;
    for (const auto& entry : schemas_) known += (known.empty() ? "" : ", ") + entry.first;
    Violation v;
    v.keyword = "schema";
    v.expected = "one of " + known;
    v.actual = schema_name;
    v.message = "no schema named \"" + schema_name + "\"; known: " + known;
    result.violations.push_back(std::move(v));
    return result;
  }
  const core::CompiledSchema* schema = compiled(*it->second);
  if (!schema) {
    Violation v;
    v.keyword = "schema";
    v.expected = "a schema that compiles";
    v.actual = it->second->error;
    v.message = "schema \"" + schema_name + "\" does not compile: " + it->second->error;
    result.violations.push_back(std::move(v));
    return result;
  }
  result.violations = schema->validate(body);
  return result;
}

CheckResult Checker::check_response(std::string_view method, std::string_view path, int status,
                                    const nlohmann::json& body) const {
  routes::Match m = routes::match(method, path);
  if (auto schema = routes::response_schema(m, status, profile_)) return validate(*schema, body);
  CheckResult result;
  result.matched_schema = false;
  if (m.area == routes::Area::kOutside || routes::text_response(m, status)) return result;
  Violation v;
  v.keyword = "status";
  v.expected = routes::allowed_statuses(m, profile_);
  v.actual = std::to_string(status);
  v.message = "HTTP " + v.actual + " is not in the " + to_string(profile_) + " contract for " +
              m.method + " " + m.path + "; expected " + v.expected;
  result.violations.push_back(std::move(v));
  return result;
}

CheckResult Checker::check_request(std::string_view method, std::string_view path,
                                   const nlohmann::json& body) const {
  if (auto schema = request_schema(method, path)) return validate(*schema, body);
  CheckResult result;
  result.matched_schema = false;
  return result;
}

CheckResult Checker::check_webhook(const nlohmann::json& body) const {
  std::string type;
  if (body.is_object() && body.contains("type") && body["type"].is_string()) {
    type = body["type"].get<std::string>();
  }
  // The specific schema names the allowed types itself, so "paymentIntent.x"
  // gets an enum violation rather than a vaguer oneOf one.
  if (type.rfind("paymentIntent.", 0) == 0) return validate("webhook_payment_intent", body);
  if (type == "installment" || type.rfind("installment.", 0) == 0) {
    return validate("webhook_installment", body);
  }
  return validate("webhook", body);
}

}  // namespace contracts
