#pragma once
// The validation core: resolves "$ref"/"$id" across documents (RFC 3986),
// bundles them into one document whose references are all local, compiles it
// with valijson, and explains valijson's failures as Violations. The Checker
// and the JSON-Schema-Test-Suite test both go through here.
//
// Thread safety: a CompiledSchema is immutable after compile(); validate() may
// run on many threads at once (valijson's regex cache is per thread).
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checker.h"

namespace valijson {
class Schema;
}

namespace contracts::core {

class SchemaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Returns the document at an absolute URI (without fragment), or nullopt.
using Fetcher = std::function<std::optional<nlohmann::json>(const std::string& uri)>;
// How a document URI is shown in a Violation's schema_location.
using UriDisplay = std::function<std::string(const std::string& uri)>;

// The root document and every document it references, references made local.
struct Bundle {
  nlohmann::json document;            // the root, with the others under "/x-bundle/<n>"
  std::vector<std::string> doc_uris;  // [0] is the root; [n] is "/x-bundle/<n>"
  // Where each "propertyNames" subschema was moved ("<schema>/x-property-names").
  std::vector<std::string> property_names;
};

// Throws SchemaError for a reference that cannot be resolved or fetched.
Bundle bundle(const nlohmann::json& root, const std::string& root_uri, const Fetcher& fetch);

class CompiledSchema {
 public:
  // `root` is read as if it had been fetched from `root_uri`.
  static std::shared_ptr<const CompiledSchema> compile(const nlohmann::json& root,
                                                       const std::string& root_uri,
                                                       const Fetcher& fetch,
                                                       UriDisplay display = nullptr);
  ~CompiledSchema();
  CompiledSchema(const CompiledSchema&) = delete;
  CompiledSchema& operator=(const CompiledSchema&) = delete;

  // Every violation; empty when the instance is valid.
  std::vector<Violation> validate(const nlohmann::json& instance) const;
  // The verdict alone (stops at the first failure).
  bool is_valid(const nlohmann::json& instance) const;

 private:
  CompiledSchema() = default;
  // Whether the "propertyNames" subschema moved to `location` accepts `name`;
  // valijson reports nothing when one rejects a name, so explain() asks.
  bool name_accepted(const std::string& location, const std::string& name) const;

  Bundle bundle_;
  UriDisplay display_;
  std::unique_ptr<valijson::Schema> schema_;
  std::map<std::string, std::unique_ptr<valijson::Schema>> name_schemas_;
};

}  // namespace contracts::core
