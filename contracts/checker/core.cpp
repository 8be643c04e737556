#include "core.h"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "explain.h"

namespace contracts::core {
namespace {

// valijson's Validator caches compiled regexes and is not thread-safe; one per
// thread keeps validate() lock-free. Patterns are the cache key, so sharing it
// between schemas is sound.
valijson::Validator& thread_validator() {
  thread_local valijson::Validator validator(valijson::Validator::kStrongTypes);
  return validator;
}

}  // namespace

std::shared_ptr<const CompiledSchema> CompiledSchema::compile(const nlohmann::json& root,
                                                              const std::string& root_uri,
                                                              const Fetcher& fetch,
                                                              UriDisplay display) {
  std::shared_ptr<CompiledSchema> compiled(new CompiledSchema());
  compiled->bundle_ = bundle(root, root_uri, fetch);
  compiled->display_ = std::move(display);
  compiled->schema_ = std::make_unique<valijson::Schema>();
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(compiled->bundle_.document);
    parser.populateSchema(adapter, *compiled->schema_);
  } catch (const std::exception& e) {
    throw SchemaError(root_uri + ": " + e.what());
  }
  return compiled;
}

CompiledSchema::~CompiledSchema() = default;

std::vector<Violation> CompiledSchema::validate(const nlohmann::json& instance) const {
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(instance);
  bool valid = false;
  try {
    valid = thread_validator().validate(*schema_, target, &results);
  } catch (const std::exception& e) {
    // valijson applies "format" to arrays and objects by converting them to
    // text, which throws; our schemas pair "format" with "type": "string", so
    // such a value is invalid anyway.
    Violation v;
    v.keyword = "(validator)";
    v.expected = "a value the validator can evaluate";
    v.actual = json_type_name(instance);
    v.message = std::string("(root): validation stopped: ") + e.what();
    return {v};
  }
  if (valid) return {};
  std::vector<RawError> raw;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) raw.push_back({error.context, error.description});
  std::vector<Violation> out = explain(bundle_, display_, raw, instance);
  if (out.empty()) {
    Violation v;
    v.keyword = "(schema)";
    v.expected = "a value the schema accepts";
    v.actual = json_type_name(instance);
    v.message = "(root): rejected without detail (a false subschema or \"propertyNames\")";
    out.push_back(v);
  }
  return out;
}

bool CompiledSchema::is_valid(const nlohmann::json& instance) const {
  valijson::adapters::NlohmannJsonAdapter target(instance);
  try {
    return thread_validator().validate(*schema_, target, nullptr);
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace contracts::core
