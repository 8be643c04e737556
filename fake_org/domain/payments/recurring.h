#pragma once
// Recurring records (spec 1, 2.5, 2.11, 4.4): which objects a source
// connector uses, and how GET /Recurring/{ID} shows them.
//
// Decisions (docs/decisions.md):
// - native -> cpm__Recurring_Payment__c; nonprofit -> npe03__Recurring_Donation__c;
//   fundraising -> GiftCommitment plus GiftCommitmentSchedule. The commitment
//   is "the recurring record" (ids in responses, reports, installments).
// - GET by the id or GUID of the recurring object or of a schedule (which
//   answers with its commitment). A commitment without a schedule is error
//   999 with HTTP 404 (spec 4.1 rule 5): the record the response needs is
//   missing; the message names the commitment.
// - Dates YYYY-MM-DD, or DD-MM-YYYY when the fixture's org.recurring_date_format
//   is day-month-year (the spec's sample).
#include <nlohmann/json.hpp>
#include <string_view>

#include "domain/config/org_config.h"
#include "domain/org/org.h"

namespace fake_org {

// GET /Recurring/{ID}.
Result<nlohmann::json> recurring_view(Org& org, std::string_view id_or_guid);

}  // namespace fake_org
