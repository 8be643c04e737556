#pragma once
// A Pact file (specification v2, v3 or v4) read into one shape: its HTTP
// interactions, each with its provider states, request, expected response
// and matching rules, whatever the version wrote them as.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace runner::pact {

struct PactError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The matchers at one path, all of which (AND) or one of which (OR) must hold.
// Each matcher is as the file writes it, with "match" always set ("type",
// "regex", "include", "date", ...).
struct RuleSet {
  std::vector<nlohmann::json> matchers;
  bool any = false;  // combine: OR
};

// Path (as written: "$.items[*].id", a header's name) -> its rules.
using Rules = std::vector<std::pair<std::string, RuleSet>>;

struct ProviderStateRef {
  std::string name;
  nlohmann::json params = nlohmann::json::object();
};

struct HttpPart {
  nlohmann::json headers = nlohmann::json::object();  // name -> text (values joined by ", ")
  bool has_body = false;
  nlohmann::json body;  // JSON, or a string for a body that is not JSON
  bool json_body = false;
  Rules body_rules;
  Rules header_rules;  // header name -> rules
};

struct PactRequest : HttpPart {
  std::string method = "GET";
  std::string path = "/";
  // name -> values, in the file's order
  std::vector<std::pair<std::string, std::vector<std::string>>> query;
  // The request's generators (v3/v4), by category: {"path": {...}, "body": {"$.a": {...}}, ...}.
  nlohmann::json generators = nlohmann::json::object();
};

struct PactResponse : HttpPart {
  int status = 200;
  RuleSet status_rule;  // v4 statusCode matchers; empty: the status itself
};

struct Interaction {
  std::string description;
  std::vector<ProviderStateRef> states;
  PactRequest request;
  PactResponse response;
};

struct Pact {
  std::string consumer, provider;
  int version = 2;  // the specification's major version
  std::vector<Interaction> interactions;
  std::vector<std::string> notes;  // interactions left out, and why
};

// Throws PactError naming what is wrong (no interactions key, a malformed
// interaction, a matching rule of an unknown shape).
Pact read_pact(const nlohmann::json& doc);

}  // namespace runner::pact
