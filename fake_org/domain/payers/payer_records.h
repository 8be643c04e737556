#pragma once
// Record-level steps of payer resolution: deduplication lookups, enrichment
// and creation of Contacts and Accounts. payer.cpp decides which to run.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "payer.h"

namespace fake_org::payer_detail {

// The matches of the first applicable deduplication rule that found any.
struct DedupMatch {
  std::vector<std::string> ids;   // empty: no rule matched (or none applied)
  std::vector<std::string> rule;  // the deciding rule's fields
};

// Runs config.deduplication[object] over `fields` (checked CrmFields). When
// `person` is set, only records whose IsPersonAccount equals it count as
// matches, so a person account never merges into a business record.
DedupMatch find_duplicates(const PayerContext& ctx, const std::string& object,
                           const nlohmann::json& fields, std::optional<bool> person);

// "Contact deduplication rule [Email] matched 2 records (...); a new Contact was created".
std::string several_matches_reason(const std::string& object, const DedupMatch& m);

// Fills the record's empty fields from `fields` (never overwrites) and keeps a
// Contact's Name in step with its names. Stages the record only if it changed.
void enrich(const PayerContext& ctx, const std::string& id, const nlohmann::json& fields);

// Stages a new record of `object` with `fields`; returns its 18-character id.
std::string create_record(const PayerContext& ctx, const ObjectDef& object, nlohmann::json fields);

// "FirstName LastName", or whichever of the two is present.
std::string full_name(const nlohmann::json& fields);

bool is_person_record(const Record& r);

}  // namespace fake_org::payer_detail
