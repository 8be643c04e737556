// contracts/openapi.yaml against the checker: every operation, status and
// example of the document maps to the schema the checker picks for it, and
// every example passes that schema; every route of the checker is documented.
#include <cctype>
#include <initializer_list>
#include <set>

#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include "checker.h"
#include "routes.h"

using contracts::Checker;
using contracts::Profile;
using nlohmann::json;

namespace {

// YAML 1.2 core schema: plain scalars may be null, booleans or numbers;
// quoted ones are strings.
json to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const auto& item : node) out.push_back(to_json(item));
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& member : node) out[member.first.as<std::string>()] = to_json(member.second);
      return out;
    }
    case YAML::NodeType::Scalar:
      break;
  }
  const std::string s = node.Scalar();
  if (node.Tag() == "!") return s;
  if (s == "null" || s == "~") return nullptr;
  if (s == "true") return true;
  if (s == "false") return false;
  try {
    return json::parse(s);  // numbers
  } catch (const json::exception&) {
    return s;
  }
}

std::string pascal(const std::string& snake) {
  std::string out;
  bool upper = true;
  for (char c : snake) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  if (out.rfind("Oauth", 0) == 0) out.replace(0, 5, "OAuth");
  return out;
}

// node[k1][k2]... without yaml-cpp's exception for a missing step.
YAML::Node dig(const YAML::Node& node, std::initializer_list<const char*> keys) {
  YAML::Node at = node;
  for (const char* key : keys) {
    if (!at.IsMap() || !at[key]) return YAML::Node(YAML::NodeType::Undefined);
    at.reset(at[key]);  // rebinds; "=" would overwrite the document's node
  }
  return at;
}

std::string component_of(const YAML::Node& content) {
  std::string ref = content["schema"]["$ref"].as<std::string>();
  return ref.substr(ref.rfind('/') + 1);
}

// The checker's schema for a status, as the document names it: the strict
// 400 refinement has no OpenAPI 3.0 form and is documented as ErrorResponse.
std::string documented_as(const std::string& schema) {
  return schema == "error_400_response" ? "ErrorResponse" : pascal(schema);
}

void check_examples(const Checker& checker, const std::string& schema, const YAML::Node& content) {
  REQUIRE(content["examples"]);
  REQUIRE(content["examples"].size() >= 1);
  for (const auto& example : content["examples"]) {
    INFO("example " << example.first.as<std::string>());
    auto result = checker.validate(schema, to_json(example.second["value"]));
    INFO(result.report());
    CHECK(result.ok());
  }
}

}  // namespace

TEST_CASE("openapi.yaml documents the checker's routes, statuses and schemas", "[openapi]") {
  YAML::Node doc = YAML::LoadFile(std::string(PROJECT_SOURCE_DIR) + "/contracts/openapi.yaml");
  auto checker = Checker::embedded(Profile::kStrict);
  REQUIRE(doc["openapi"].as<std::string>() == "3.0.3");
  std::set<std::string> documented;
  size_t responses = 0;

  for (const auto& path : doc["paths"]) {
    const std::string p = path.first.as<std::string>();
    for (const auto& op : path.second) {
      std::string method = op.first.as<std::string>();
      if (method == "servers" || method == "parameters") continue;
      for (auto& c : method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      documented.insert(method + " " + p);
      INFO(method << " " << p);

      YAML::Node json_body = dig(op.second, {"requestBody", "content", "application/json"});
      if (json_body) {
        auto schema = checker->request_schema(method, p);
        REQUIRE(schema);
        CHECK(component_of(json_body) == pascal(*schema));
        check_examples(*checker, *schema, json_body);
      } else {
        CHECK(checker->request_schema(method, p) == std::nullopt);
      }

      for (const auto& response : op.second["responses"]) {
        const std::string status = response.first.as<std::string>();
        INFO("status " << status);
        auto schema = checker->response_schema(method, p, std::stoi(status));
        YAML::Node content = dig(response.second, {"content", "application/json"});
        if (dig(response.second, {"content", "text/plain"})) {
          // The platform's plain-text answers: no schema, and the checker
          // takes the status as the route's (no violation).
          CHECK_FALSE(content);
          CHECK(schema == std::nullopt);
          CHECK(checker->check_response(method, p, std::stoi(status), "text").ok());
          continue;
        }
        if (!content) {
          // Only the empty bodies of a revocation and of the data API's 204s go
          // without content.
          CHECK((schema == std::optional<std::string>("oauth_revoke_response") ||
                 schema == std::optional<std::string>("data_no_content")));
          continue;
        }
        ++responses;
        REQUIRE(schema);
        CHECK(component_of(content) == documented_as(*schema));
        check_examples(*checker, *schema, content);
      }

      for (const auto& callback : op.second["callbacks"]) {
        for (const auto& expression : callback.second) {
          YAML::Node body =
              dig(expression.second, {"post", "requestBody", "content", "application/json"});
          REQUIRE(body);
          for (const auto& example : body["examples"]) {
            auto result = checker->check_webhook(to_json(example.second["value"]));
            INFO(result.report());
            CHECK(result.ok());
            CHECK(documented_as(result.schema) == component_of(body));
          }
        }
      }
    }
  }
  CHECK(responses >= 40);
  for (const auto& route : contracts::routes::all()) {
    // GET .../services/oauth2/revoke (on the instance and the login hosts) is
    // a platform alias of the POST.
    const std::string path = route.path;
    const std::string revoke = "/services/oauth2/revoke";
    if (std::string(route.method) == "GET" &&
        (path == revoke || path == "/login" + revoke || path == "/test" + revoke)) {
      continue;
    }
    INFO(route.method << " " << route.path);
    const std::string where =
        route.data ? contracts::routes::kDataMount + route.path : std::string(route.path);
    CHECK(documented.count(std::string(route.method) + " " + where) == 1);
  }
}
