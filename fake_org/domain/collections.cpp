#include "collections.h"

#include "events.h"
#include "fields.h"
#include "views.h"

namespace fake_org {

namespace {

Result<PspSession> find_session(Org& org, const std::string& id) {
  auto s = org.psp_sessions().get(id);
  if (!s && is_record_id(id)) s = org.psp_sessions().find_by_installment(id);
  if (!s)
    return make_error(
        error_code::kInvalidData, "session",
        "No hosted payment session '" + id + "': use the last path segment of a RedirectURL",
        ErrorKind::kNotFound);
  return *s;
}

ApiError already_completed(const PspSession& s) {
  return make_error(error_code::kInvalidData, "session",
                    "Payment session " + s.id + " of " + s.payment_intent_id +
                        " is already completed; a payment is collected once",
                    ErrorKind::kConflict);
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
  r.fields[fields::kGuid] = r.guid;
  return r;
}

// The contact's profile for this method and processor (created or updated).
std::string upsert_profile(Org& org, Transaction& tx, const Record& inst, const PspOutcome& o,
                           TimePoint now) {
  namespace f = fields::installment;
  const std::string contact = inst.text(f::kContact);
  const std::string method = inst.text(f::kMethod);
  const std::string processor = inst.text(f::kProcessor);
  Record profile;
  bool found = false;
  if (!contact.empty()) {
    // Inside write(): the store's lock is held, so its unlocked listing is safe.
    for (const auto& id : org.records().ids_of(objects::kPaymentProfile)) {
      auto p = tx.get(id);
      if (p && p->text(f::kContact) == contact && p->text(f::kMethod) == method &&
          p->text(f::kProcessor) == processor) {
        profile = *p;
        found = true;
        break;
      }
    }
  }
  if (!found) {
    profile = new_record(org, objects::kPaymentProfile, "a0H", now);
    profile.fields[fields::kName] = method + " " + processor;
    if (!contact.empty()) profile.fields[f::kContact] = contact;
    if (!inst.text(f::kAccount).empty()) profile.fields[f::kAccount] = inst.text(f::kAccount);
    profile.fields[f::kMethod] = method;
    profile.fields[f::kProcessor] = processor;
    profile.fields["cpm__Token__c"] = "tok_" + org.ids().random_base36(20);
  }
  auto& x = profile.fields;
  x["cpm__Active__c"] = true;
  if (!o.last_four.empty()) {
    x["cpm__Card_Brand__c"] = o.card_brand;
    x["cpm__Card_Last_Four__c"] = o.last_four;
    if (o.expiry_month > 0) x["cpm__Card_Expiry_Month__c"] = o.expiry_month;
    if (o.expiry_year > 0) x["cpm__Card_Expiry_Year__c"] = o.expiry_year;
    if (!o.holder.empty()) x["cpm__Card_Holder_Name__c"] = o.holder;
  }
  if (!o.iban.empty()) {
    x["cpm__IBAN__c"] = o.iban;
    if (!o.holder.empty()) x["cpm__Account_Holder_Name__c"] = o.holder;
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

}  // namespace

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
  if (session.installment_id.empty())
    return make_error(error_code::kInvalidData, "session",
                      "Payment session " + session.id + " has no installment to collect",
                      ErrorKind::kConflict);
  PspOutcome o = outcome;
  if (o.psp_reference.empty()) o.psp_reference = "psp_" + org.ids().random_base36(20);

  std::vector<DomainEvent> events;
  TimePoint now = org.clock().now();
  std::string today = format_date(date_of(now));
  auto written = org.records().write<std::string>([&](Transaction& tx) -> Result<std::string> {
    namespace f = fields::installment;
    namespace pf = fields::payment;
    auto current = tx.get(session.installment_id);
    if (!current)
      return make_error(error_code::kInvalidData, "session",
                        "The installment " + session.installment_id + " of session " + session.id +
                            " no longer exists (org reset?)",
                        ErrorKind::kNotFound);
    if (current->text(f::kStatus) == "Collected") return already_completed(session);
    Record inst = *current;
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
    p[pf::kPaymentIntentId] = session.payment_intent_id;
    p[pf::kPspReference] = o.psp_reference;
    p[f::kPaymentProfile] = profile_id;
    tx.put(pay);

    inst.fields[f::kStatus] = "Collected";
    inst.fields[f::kAmountOpen] = 0;
    inst.fields[f::kCollectionDate] = today;
    inst.fields[f::kPaymentProfile] = profile_id;
    inst.modified = now;
    tx.put(inst);

    events.push_back({event_type::kInstallmentStatusChange, session.payment_intent_id,
                      inst.text(f::kWebhookUrl), installment_view(org, tx, inst)});
    return pay.id;
  });
  if (!written.ok()) return written.errors();
  PspSession after = session;
  org.psp_sessions().update(session.id, [&](PspSession& x) {
    x.status = "completed";
    x.last_outcome = "success";
    x.payment_id = *written;
    ++x.attempts;
    after = x;
  });
  org.events().publish(std::move(events));
  return CollectionResult{after, session.installment_id, *written,
                          append_payment_intent(session.success_url, session.payment_intent_id)};
}

Result<CollectionResult> decline_payment(Org& org, const std::string& id, const std::string&) {
  return record_attempt(org, id, "failure", "failed");
}

Result<CollectionResult> cancel_payment(Org& org, const std::string& id) {
  return record_attempt(org, id, "cancel", "cancelled");
}

}  // namespace fake_org
