#pragma once
// POST composite/tree/{Type}: records of one type with their children
// nested under child relationship names ({"Contacts": {"records": [...]}},
// the names describe's childRelationships lists), each with
// attributes {type, referenceId}; up to 200 records and 5 levels in all.
// Every record is created in ONE transaction, parents before children (a
// child's lookup to its parent is set from the parent's new id): any error
// and nothing is written. What `sf data import tree` sends.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "data_errors.h"
#include "domain/org/org.h"

namespace fake_org::data {

inline constexpr size_t kMaxTreeRecords = 200;
inline constexpr size_t kMaxTreeLevels = 5;

struct TreeResult {
  std::string reference_id;
  std::string id;     // set when created
  DataErrors errors;  // set when refused
};

struct TreeOutcome {
  bool has_errors = false;
  // Every record's id (has_errors false), else only the refused records.
  std::vector<TreeResult> results;
};

// NOT_FOUND for an unknown type; JSON_PARSER_ERROR for a body that is no
// {"records": [...]}. The rest comes back in the outcome.
DataResult<TreeOutcome> save_tree(Org& org, std::string_view type, const nlohmann::json& body);

// The platform's body: {hasErrors, results: [{referenceId, id}]} or
// {hasErrors: true, results: [{referenceId, errors: [{statusCode, message, fields}]}]}.
nlohmann::ordered_json tree_outcome_json(const TreeOutcome& outcome);

}  // namespace fake_org::data
