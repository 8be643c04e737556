#include "core.h"

#include <cmath>
#include <cstdint>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "explain.h"
#include "formats.h"
#include "uri.h"

namespace contracts::core {
namespace {

// valijson's Validator caches compiled regexes and is not thread-safe; one per
// thread keeps validate() lock-free. Patterns are the cache key, so sharing it
// between schemas is sound.
valijson::Validator& thread_validator() {
  thread_local valijson::Validator validator(valijson::Validator::kStrongTypes);
  return validator;
}

// Draft-07 counts a number with a zero fractional part (1.0) as an integer;
// nlohmann::json keeps it a double, which valijson's strong types do not
// count. Such numbers become integers (only where an int64 holds them: a
// bignum stays a double) in a copy, made only when there are any.
bool has_integral_double(const nlohmann::json& v) {
  if (v.is_number_float()) {
    double d = v.get<double>();
    return std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.2e18;
  }
  if (v.is_structured()) {
    for (const auto& child : v) {
      if (has_integral_double(child)) return true;
    }
  }
  return false;
}

void integralize(nlohmann::json& v) {
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.2e18)
      v = static_cast<std::int64_t>(d);
  } else if (v.is_structured()) {
    for (auto& child : v) integralize(child);
  }
}

// The instance to validate: `instance` itself, or its normalised copy in `storage`.
const nlohmann::json& normalized(const nlohmann::json& instance, nlohmann::json& storage) {
  if (!has_integral_double(instance)) return instance;
  storage = instance;
  integralize(storage);
  return storage;
}

}  // namespace

std::shared_ptr<const CompiledSchema> CompiledSchema::compile(const nlohmann::json& root,
                                                              const std::string& root_uri,
                                                              const Fetcher& fetch,
                                                              UriDisplay display) {
  std::shared_ptr<CompiledSchema> compiled(new CompiledSchema());
  compiled->bundle_ = bundle(root, root_uri, fetch);
  assert_formats(compiled->bundle_.document);
  compiled->display_ = std::move(display);
  compiled->schema_ = std::make_unique<valijson::Schema>();
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(compiled->bundle_.document);
    parser.populateSchema(adapter, *compiled->schema_);
    // Each property-name subschema on its own: the whole bundle with a root
    // "$ref" to it, so that references inside it still resolve.
    for (const std::string& location : compiled->bundle_.property_names) {
      nlohmann::json doc = compiled->bundle_.document;
      doc["$ref"] = "#" + uri::pointer_for_valijson(location);
      auto schema = std::make_unique<valijson::Schema>();
      valijson::adapters::NlohmannJsonAdapter names(doc);
      parser.populateSchema(names, *schema);
      compiled->name_schemas_[location] = std::move(schema);
    }
  } catch (const std::exception& e) {
    throw SchemaError(root_uri + ": " + e.what());
  }
  return compiled;
}

CompiledSchema::~CompiledSchema() = default;

std::vector<Violation> CompiledSchema::validate(const nlohmann::json& original) const {
  nlohmann::json storage;
  const nlohmann::json& instance = normalized(original, storage);
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
  NameCheck names = [this](const std::string& location, const std::string& name) {
    return name_accepted(location, name);
  };
  std::vector<Violation> out = explain(bundle_, display_, raw, instance, names);
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

bool CompiledSchema::name_accepted(const std::string& location, const std::string& name) const {
  auto it = name_schemas_.find(location);
  if (it == name_schemas_.end()) return true;
  const nlohmann::json value = name;
  valijson::adapters::NlohmannJsonAdapter target(value);
  try {
    return thread_validator().validate(*it->second, target, nullptr);
  } catch (const std::exception&) {
    return false;
  }
}

bool CompiledSchema::is_valid(const nlohmann::json& original) const {
  nlohmann::json storage;
  valijson::adapters::NlohmannJsonAdapter target(normalized(original, storage));
  try {
    return thread_validator().validate(*schema_, target, nullptr);
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace contracts::core
