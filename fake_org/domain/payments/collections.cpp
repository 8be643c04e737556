#include "collections.h"

#include "collection_run.h"
#include "connectors.h"
#include "domain/banking/bank_account.h"
#include "domain/core/events.h"
#include "domain/core/fields.h"
#include "domain/core/ids.h"
#include "domain/org/psp_sessions.h"
#include "domain/store/record_store.h"
#include "views.h"

namespace fake_org {

namespace {

Result<PspSession> find_session(Org& org, const std::string& id) {
  auto s = org.psp_sessions().get(id);
  if (!s && is_record_id(id)) s = org.psp_sessions().find_by_installment(id);
  if (!s)
    return make_error(error_code::kInvalidData, "session",
                      no_open_session(id, org.psp_sessions().expiry()), ErrorKind::kNotFound);
  return *s;
}

ApiError already_completed(const PspSession& s) {
  return make_error(error_code::kInvalidData, "session",
                    "Payment session " + s.id + " of " + s.payment_intent_id +
                        " is already completed; a payment is collected once",
                    ErrorKind::kConflict);
}

// The session was never completed, but its installment was paid another way
// (another session of a pay-existing request, or an inline collection): the
// payer must learn that, not that this session "is already completed".
ApiError paid_elsewhere(const PspSession& s, const Record& inst) {
  const std::string by = inst.text(fields::installment::kPaymentIntentId);
  return make_error(error_code::kInvalidData, "session",
                    "Payment session " + s.id + " of " + s.payment_intent_id +
                        " was never completed: its installment " + inst.id + " was paid elsewhere" +
                        (by.empty() || by == s.payment_intent_id
                             ? std::string(" (through another session or request)")
                             : " (by " + by + ")") +
                        "; nothing is charged twice",
                    ErrorKind::kConflict);
}

// The record a session pays or sets up is gone (an admin reset since).
ApiError session_record_gone(const PspSession& s, const std::string& what, const std::string& id) {
  return make_error(
      error_code::kInvalidData, "session",
      "The " + what + " " + id + " of session " + s.id + " no longer exists (org reset?)",
      ErrorKind::kNotFound);
}

std::string new_id(Org& org, const char* object, const char* fallback_prefix) {
  const ObjectDef* def = org.config().object(object);
  return org.ids().record_id(def ? def->key_prefix : fallback_prefix);
}

Record new_record(Org& org, const char* object, const char* prefix, TimePoint now) {
  Record r;
  r.object = object;
  r.id = new_id(org, object, prefix);
  r.guid = org.ids().guid();
  r.created = r.modified = now;
  return r;
}

// The installment's own profile when it names one (recurring: the mandate's),
// else the contact's active profile for this method and processor, else a new one;
// updated with what the PSP returned.
std::string upsert_profile(Org& org, Transaction& tx, const Record& inst, const PspOutcome& o,
                           TimePoint now) {
  namespace f = fields::installment;
  namespace pp = fields::payment_profile;
  const std::string contact = inst.text(f::kContact);
  const std::string method = inst.text(f::kMethod);
  const std::string processor = inst.text(f::kProcessor);
  Record profile;
  bool found = false;
  if (auto own = inst.has(f::kPaymentProfile) ? tx.get(inst.text(f::kPaymentProfile)) : nullptr;
      own && own->object == objects::kPaymentProfile) {
    profile = *own;
    found = true;
  }
  if (!found && !contact.empty()) {
    // The active one: profiles of accounts the contact replaced stay, inactive
    // (recurring_ops.h), and are not brought back by a later payment.
    for (const auto& id :
         tx.find(index_name::kProfileByContactMethod, {contact, method, processor})) {
      auto p = tx.get(id);
      auto active = p ? p->get(pp::kActive) : std::nullopt;
      if (!active || !active->is_boolean() || !active->get<bool>()) continue;
      // Another bank account typed on the page: a profile of its own, the old
      // one kept inactive with its account (decisions row 26), as on an update.
      const std::string stored = p->text(pp::kIban);
      if (!o.iban.empty() && !stored.empty() &&
          iban_electronic_format(stored) != iban_electronic_format(o.iban)) {
        Record old = *p;
        old.fields[pp::kActive] = false;
        old.modified = now;
        tx.put(std::move(old));
        break;
      }
      profile = *p;
      found = true;
      break;
    }
  }
  if (!found) {
    profile = new_record(org, objects::kPaymentProfile, "a0H", now);
    profile.fields[fields::kName] = method + " " + processor;
    if (!contact.empty()) profile.fields[pp::kContact] = contact;
    if (!inst.text(f::kAccount).empty()) profile.fields[pp::kAccount] = inst.text(f::kAccount);
    profile.fields[pp::kMethod] = method;
    profile.fields[pp::kProcessor] = processor;
    profile.fields[pp::kToken] = "tok_" + org.ids().random_base36(20);
  }
  auto& x = profile.fields;
  x[pp::kActive] = true;
  if (!o.last_four.empty()) {
    x["cpm__Card_Brand__c"] = o.card_brand;
    x["cpm__Card_Last_Four__c"] = o.last_four;
    if (o.expiry_month > 0) x["cpm__Card_Expiry_Month__c"] = o.expiry_month;
    if (o.expiry_year > 0) x["cpm__Card_Expiry_Year__c"] = o.expiry_year;
    if (!o.holder.empty()) x["cpm__Card_Holder_Name__c"] = o.holder;
  }
  if (!o.wallet_email.empty() || !o.wallet_account.empty()) {
    if (!o.wallet_email.empty()) x["cpm__Wallet_Email__c"] = o.wallet_email;
    if (!o.wallet_account.empty()) x["cpm__Wallet_Account_Id__c"] = o.wallet_account;
  }
  if (!o.iban.empty()) {
    x[pp::kIban] = o.iban;
    if (!o.holder.empty()) x[pp::kAccountHolderName] = o.holder;
  }
  profile.modified = now;
  tx.put(profile);
  return profile.id;
}

Result<CollectionResult> record_attempt(Org& org, const std::string& id, const char* outcome,
                                        const char* status) {
  auto s = find_session(org, id);
  if (!s.ok()) return s.errors();
  if (s->status == "completed") return already_completed(*s);
  PspSession after;
  bool still_open = true;
  org.psp_sessions().update(s->id, [&](PspSession& x) {
    if (x.status == "completed") {
      still_open = false;
    } else {
      x.status = status;
      x.last_outcome = outcome;
      ++x.attempts;
    }
    after = x;
  });
  if (!still_open) return already_completed(after);
  return CollectionResult{after, after.installment_id, "",
                          append_payment_intent(after.failure_url, after.payment_intent_id)};
}

Result<CollectionResult> complete_setup(Org& org, const PspSession& session, const PspOutcome& o);

}  // namespace

std::string collect_installment(Org& org, Transaction& tx, Record& inst, const PspOutcome& outcome,
                                TimePoint now, std::vector<DomainEvent>& events) {
  namespace f = fields::installment;
  namespace pf = fields::payment;
  PspOutcome o = outcome;
  if (o.psp_reference.empty()) o.psp_reference = "psp_" + org.ids().random_base36(20);
  const std::string today = format_date(date_of(now));
  std::string profile_id = upsert_profile(org, tx, inst, o, now);

  Record pay = new_record(org, objects::kPayment, "a0G", now);
  auto& p = pay.fields;
  p[fields::kName] = o.psp_reference;
  p[pf::kInstallment] = inst.id;
  p[pf::kStatus] = "Collected";
  p[pf::kAmount] = inst.get(f::kAmountOpen) ? *inst.get(f::kAmountOpen)
                   : inst.get(f::kAmount)   ? *inst.get(f::kAmount)
                                            : nlohmann::json(0);
  if (!inst.text(fields::kCurrency).empty()) p[fields::kCurrency] = inst.text(fields::kCurrency);
  p[pf::kCollectionDate] = today;
  p[pf::kMethod] = inst.text(f::kMethod);
  p[pf::kProcessor] = inst.text(f::kProcessor);
  if (!inst.text(f::kTarget).empty()) p[pf::kTarget] = inst.text(f::kTarget);
  if (!inst.text(f::kContact).empty()) p[pf::kContact] = inst.text(f::kContact);
  if (!inst.text(f::kAccount).empty()) p[pf::kAccount] = inst.text(f::kAccount);
  p[pf::kPaymentIntentId] = inst.text(f::kPaymentIntentId);
  p[pf::kPspReference] = o.psp_reference;
  p[f::kPaymentProfile] = profile_id;
  tx.put(pay);

  inst.fields[f::kStatus] = "Collected";
  inst.fields[f::kAmountOpen] = 0;
  inst.fields[f::kCollectionDate] = today;
  inst.fields[f::kPaymentProfile] = profile_id;
  inst.fields.erase(f::kFailureReason);
  inst.modified = now;
  tx.put(inst);
  events.push_back(event_with_data(event_type::kInstallmentStatusChange,
                                   inst.text(f::kPaymentIntentId), inst.text(f::kWebhookUrl),
                                   [&] { return installment_webhook_view(org, tx, inst); }));
  return pay.id;
}

void reject_installment(Org& org, Transaction& tx, Record& inst, const std::string& reason,
                        TimePoint now, std::vector<DomainEvent>& events) {
  namespace f = fields::installment;
  const std::string before = inst.text(f::kStatus);
  const std::string after = org.config().org.installment_failed_status;
  inst.fields[f::kStatus] = after;
  inst.fields[f::kFailureReason] = reason;
  inst.modified = now;
  tx.put(inst);
  if (before != after)
    events.push_back(event_with_data(event_type::kInstallmentStatusChange,
                                     inst.text(f::kPaymentIntentId), inst.text(f::kWebhookUrl),
                                     [&] { return installment_webhook_view(org, tx, inst); }));
}

void activate_mandate(Org& org, Transaction& tx, const std::string& mandate_id,
                      const std::string& profile_id, TimePoint now) {
  namespace m = fields::mandate;
  auto current = tx.get(mandate_id);
  if (!current || current->object != objects::kMandate || current->text(m::kStatus) != "Pending")
    return;
  Record mandate = *current;
  mandate.fields[m::kStatus] = "Active";
  mandate.fields[m::kSignatureDate] = format_date(date_of(now));
  if (!mandate.has(m::kReference) && !mandate.has(m::kToken))
    mandate.fields[m::kToken] = "tok_" + org.ids().random_base36(20);
  if (!profile_id.empty()) mandate.fields[m::kPaymentProfile] = profile_id;
  mandate.modified = now;
  tx.put(mandate);
  // A native recurring payment waits for its mandate (Pending -> Active);
  // donations and commitments start Active and only waited on the mandate.
  // Either way the series now enters the collection index (awaiting_payer).
  for (const ConnectorDescriptor& d : connector_descriptors()) {
    const char* link = d.mandate_link;
    auto rec = mandate.has(link) ? tx.get(mandate.text(link)) : nullptr;
    if (!rec || rec->text(fields::recurring::kMandate) != mandate.id) continue;
    Record r = *rec;
    // Collectable from today on: no installment for the dates it waited through.
    if (r.awaiting_payer) {
      start_collecting(org.config(), tx, r, date_of(now));
      r.modified = now;
    }
    r.awaiting_payer = false;
    if (d.pending_while_payer_acts && r.text(d.status) == "Pending") {
      r.fields[d.status] = d.active_status;
      r.modified = now;
    }
    tx.put(r);
  }
}

void deactivate_one_off_mandate(Transaction& tx, const std::string& mandate_id, TimePoint now) {
  namespace m = fields::mandate;
  auto current = mandate_id.empty() ? nullptr : tx.get(mandate_id);
  if (!current || current->object != objects::kMandate || current->text(m::kStatus) == "Inactive")
    return;
  for (const ConnectorDescriptor& d : connector_descriptors())
    if (current->has(d.mandate_link)) return;
  Record mandate = *current;
  mandate.fields[m::kStatus] = "Inactive";
  mandate.fields[m::kDeactivationDate] = format_date(date_of(now));
  mandate.modified = now;
  tx.put(mandate);
}

std::string append_payment_intent(const std::string& url, const std::string& payment_intent_id) {
  if (url.empty()) return url;
  return url + (url.find('?') == std::string::npos ? "?" : "&") +
         "payment_intent=" + payment_intent_id;
}

Result<CollectionResult> complete_payment(Org& org, const std::string& id,
                                          const PspOutcome& outcome) {
  auto found = find_session(org, id);
  if (!found.ok()) return found.errors();
  const PspSession session = *found;
  if (session.status == "completed") return already_completed(session);
  if (session.installment_id.empty() && session.recurring_id.empty())
    return make_error(error_code::kInvalidData, "session",
                      "Payment session " + session.id + " has no installment to collect",
                      ErrorKind::kConflict);
  PspOutcome o = outcome;
  if (o.psp_reference.empty()) o.psp_reference = "psp_" + org.ids().random_base36(20);
  if (session.installment_id.empty()) return complete_setup(org, session, o);

  TimePoint now = org.clock().now();
  PspSession after = session;
  std::string paid;
  auto written = org.write_publishing<std::string>(
      [&](Transaction& tx, std::vector<DomainEvent>& events) -> Result<std::string> {
        namespace f = fields::installment;
        auto current = tx.get(session.installment_id);
        if (!current) return session_record_gone(session, "installment", session.installment_id);
        if (current->text(f::kStatus) == "Collected") return paid_elsewhere(session, *current);
        Record inst = *current;
        // The hosted page's intent is the one paying (pay-existing moves it).
        inst.fields[f::kPaymentIntentId] = session.payment_intent_id;
        std::string payment_id = collect_installment(org, tx, inst, o, now, events);
        if (inst.has(f::kMandate))
          activate_mandate(org, tx, inst.text(f::kMandate), inst.text(f::kPaymentProfile), now);
        // Paid another way: the inline debit it replaced must not run again.
        deactivate_one_off_mandate(tx, session.superseded_mandate_id, now);
        paid = payment_id;
        return payment_id;
      },
      [&] {
        // Still under the store's lock (org.h): the session completes and the
        // status_change queues before a collection run committing next can queue
        // this intent's installment.created.
        org.psp_sessions().update(session.id, [&](PspSession& x) {
          x.status = "completed";
          x.last_outcome = "success";
          x.payment_id = paid;
          ++x.attempts;
          after = x;
        });
      });
  if (!written.ok()) return written.errors();
  return CollectionResult{after, session.installment_id, *written,
                          append_payment_intent(session.success_url, session.payment_intent_id)};
}

namespace {

// A recurring setup without an initial payment: the payer only authorised
// the mandate, so nothing is collected; the mandate becomes Active.
Result<CollectionResult> complete_setup(Org& org, const PspSession& session, const PspOutcome& o) {
  TimePoint now = org.clock().now();
  PspSession after = session;
  auto written = org.records().write<bool>(
      [&](Transaction& tx) -> Result<bool> {
        // Checked and completed under the store's lock: the setup has no
        // installment whose status would stop a second, concurrent completion.
        if (auto current = org.psp_sessions().get(session.id);
            current && current->status == "completed")
          return already_completed(*current);
        auto rec = tx.get(session.recurring_id);
        if (!rec) return session_record_gone(session, "recurring record", session.recurring_id);
        Record stub;  // the profile belongs to the recurring record's payer
        stub.fields = rec->fields;
        stub.fields[fields::installment::kContact] = rec->text(fields::recurring_payment::kContact);
        std::string profile = upsert_profile(org, tx, stub, o, now);
        activate_mandate(org, tx, rec->text(fields::recurring::kMandate), profile, now);
        return true;
      },
      [&] {
        // Once committed (the record cap may refuse it), still under the store's lock.
        org.psp_sessions().update(session.id, [&](PspSession& x) {
          x.status = "completed";
          x.last_outcome = "success";
          ++x.attempts;
          after = x;
        });
      });
  if (!written.ok()) return written.errors();
  return CollectionResult{after, "", "",
                          append_payment_intent(session.success_url, session.payment_intent_id)};
}

}  // namespace

Result<CollectionResult> decline_payment(Org& org, const std::string& id, const std::string&) {
  return record_attempt(org, id, "failure", "failed");
}

Result<CollectionResult> cancel_payment(Org& org, const std::string& id) {
  return record_attempt(org, id, "cancel", "cancelled");
}

}  // namespace fake_org
