#pragma once
// The optional members of the valid bodies: a table, one row per member an
// operation's body may carry beyond what its builder always sends (WebhookURL,
// Settings.SourceConnector, Payer.Account, OneTime.CurrencyISOCode...).
// A row's value comes from the request schema (schema_value: a URL, a date,
// an enum member, a text within its lengths) or, where the schema alone
// cannot give one the target takes, from the target's facts (its currency,
// a campaign, its processors' targets, its record types, its CrmFields
// catalogue, its package actions). Which rows a body gets is drawn per body
// (none, some, all), so across a run each is sent and a failing case can
// still lose them (shrink.cpp).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/explore/operations.h"

namespace runner::explore {

// Makes a member's value from the facts; null when the target has none. It
// may set a sibling the value goes with (externalIdFieldName sets the
// operation to upsert).
using MemberSource = nlohmann::json (*)(BuildContext&, nlohmann::json& body);

struct OptionalMember {
  std::string ops;      // the operations whose bodies may carry it, space separated
  std::string pointer;  // where it goes; missing parents are made objects
  MemberSource source;  // nullptr: from the request schema
  std::string needs;    // a member the body must hold for it ("" none)
};

const std::vector<OptionalMember>& optional_members();

// Adds the optional members of `op`'s rows to `body` (a JSON object) per
// ctx.fill, and lists them in ctx.added. `schema`: the request's schema.
void add_optional_members(const std::string& op, const std::string& schema, nlohmann::json& body,
                          BuildContext& ctx);

// A request-schema property no valid body sends, and why ("schema#/pointer").
struct UnsentProperty {
  std::string property;
  std::string reason;
};
const std::vector<UnsentProperty>& unsent_properties();

}  // namespace runner::explore
