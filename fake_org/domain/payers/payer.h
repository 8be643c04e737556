#pragma once
// The v2 Payer block (spec 2.2): finds or creates the Contact and Account a
// payment belongs to, inside the request's transaction. The older /Payment
// Payer (spec 4.7) is translated to this shape: ContactId -> Contact.Id,
// fields -> Contact.CrmFields, ContactUpdate "Enrich" -> Id plus CrmFields.
//
// Decisions (docs/decisions.md):
// - Contact and Account each by Id or by CrmFields; Id plus CrmFields enriches
//   the existing record (fills its empty fields only, never overwrites).
// - AllowDeduplication true: the org's rules for the object are tried in
//   order; a rule applies when the incoming fields have every field of it; the
//   first applicable rule with matches decides. One match: that record is used
//   and enriched. Several: a new record is created and a review reason names
//   the rule and the ids (the inbound report goes to Guided Review).
//   A person-account payer deduplicates on Contact (Person fields mapped) and
//   matches person accounts' contacts only; a business Account matches
//   business accounts only.
// - A person account (record type with person_account) is stored as the
//   platform does: an Account (IsPersonAccount, Name = FirstName LastName,
//   PersonContactId) plus its Contact (AccountId, IsPersonAccount).
//   A Contact block alone with a person-account AccountRecordTypeName also
//   makes a person account. A person account plus a Payer.Contact block is 200.
// - Contact.CrmFields.AccountId is refused (200): the account is Payer.Account.
// - A contact without account in a "household" org gets "<LastName> Household",
//   in any org when the caller needs an account (PayerContext::account_required).
// - Unknown keys in Payer, Payer.Contact, Payer.Account are 200 (typos such as
//   "AllowDedupliction" would otherwise silently change behaviour).
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "domain/config/org_config.h"
#include "domain/core/clock.h"
#include "domain/core/errors.h"
#include "domain/core/ids.h"
#include "domain/store/transaction.h"

namespace fake_org {

struct PayerOutcome {
  std::string contact_id,
      account_id;  // 18-char ids (staged in the transaction); either may be empty
  bool contact_created = false, account_created = false;
  // An existing record found by a deduplication rule was used.
  bool contact_deduplicated = false, account_deduplicated = false;
  bool person_account = false;
  std::vector<std::string> review_reasons;  // non-empty: the inbound report goes to Guided Review
};

// The store behind `tx` must carry org_indexes(config) (the "dedup:" indexes).
struct PayerContext {
  const OrgConfig& config;
  Transaction& tx;
  IdGenerator& ids;
  TimePoint now;
  // The payment's record needs an Account (a gift commitment's DonorId is a
  // required lookup to Account): a contact left without one gets
  // "<LastName> Household", as in a household org (decisions row 24).
  bool account_required = false;
  // The source connector's package gives a new contact its household account
  // (the nonprofit package), whatever org.contact_without_account says.
  bool households = false;
};

// Resolves the v2 Payer block (spec 2.2) inside the request's transaction:
// staged creates and enrichments only; the caller commits or discards.
// Errors: 010 (no Contact and no Account, or a field required to create a
// record, such as LastName of a new contact, missing), 200 (invalid data,
// unknown record type, an Id of the wrong object), 200 of kind kNotFound for a
// well-formed Id that names no record.
Result<PayerOutcome> resolve_payer(const nlohmann::json& payer, PayerContext ctx,
                                   std::string_view path = "Payer");

}  // namespace fake_org
