// Update of an existing recurring payment (spec 4.1 rules 1 to 5).
//
// Decisions (docs/decisions.md):
// - Recurring.Id is the record id or GUID of a connector's recurring object
//   (or of a gift commitment schedule, which stands for its commitment). The
//   record's connector is the one whose object it is; when that is not the
//   org's default, Settings.SourceConnector must name it (012 when absent, 200
//   when it names another connector).
// - Every update creates a new mandate and deactivates the previous one
//   (Inactive, deactivation date today) and upserts the payment profile; the
//   recurring record (and schedule) take the new method, processor, target,
//   mandate and profile. Contact and account come from the current mandate,
//   else from the record's own lookups.
// - A finished series (native Completed or Cancelled, donation or commitment
//   Closed) is refused with 200 naming record and status: it would show
//   Active again with no next due date and never collect (row 44).
#include "bank_parameters.h"
#include "collection_run.h"
#include "crm_fields.h"
#include "fields.h"
#include "payment_intent_ops.h"
#include "recurring_ops.h"
#include "views.h"

namespace fake_org {

namespace {

// Contact and account of an existing recurring record.
std::pair<std::string, std::string> payer_of(const OperationContext& op, const Record& rec,
                                             ConnectorKind kind) {
  std::string contact, account;
  if (auto m = rec.text(fields::recurring::kMandate); !m.empty())
    if (auto mandate = op.tx.get(m)) {
      contact = mandate->text(fields::mandate::kContact);
      account = mandate->text(fields::mandate::kAccount);
    }
  if (contact.empty() && account.empty()) {
    switch (kind) {
      case ConnectorKind::kNative:
        contact = rec.text(fields::recurring_payment::kContact);
        account = rec.text(fields::recurring_payment::kAccount);
        break;
      case ConnectorKind::kNonprofit:
        contact = rec.text(fields::recurring_donation::kContact);
        account = rec.text(fields::recurring_donation::kOrganization);
        break;
      case ConnectorKind::kFundraising:
        account = rec.text(fields::gift_commitment::kDonor);
        if (auto a = op.tx.get(account)) contact = a->text("PersonContactId");
        break;
    }
  }
  return {contact, account};
}

std::string campaign_of(const Record& rec, ConnectorKind kind) {
  switch (kind) {
    case ConnectorKind::kNative:
      return rec.text(fields::recurring_payment::kCampaign);
    case ConnectorKind::kNonprofit:
      return rec.text(fields::recurring_donation::kCampaign);
    case ConnectorKind::kFundraising:
      return rec.text(fields::gift_commitment::kCampaign);
  }
  return "";
}

// The status of a series that has ended ("" while it runs): native Completed
// (after its EndDate) or Cancelled, donation and commitment Closed. Such a
// series collects nothing any more (the clock dropped its next due date), so
// an update cannot bring it back (decisions row 44).
std::string finished_status(const Record& rec, ConnectorKind kind) {
  std::string status;
  switch (kind) {
    case ConnectorKind::kNative:
      status = rec.text(fields::recurring_payment::kStatus);
      return status == "Completed" || status == "Cancelled" ? status : "";
    case ConnectorKind::kNonprofit:
      status = rec.text(fields::recurring_donation::kStatus);
      break;
    case ConnectorKind::kFundraising:
      status = rec.text(fields::gift_commitment::kStatus);
      break;
  }
  return status == "Closed" ? status : "";
}

std::string currency_of(const Record& rec, const OrgConfig& config) {
  std::string c = rec.text(fields::kCurrency);
  return c.empty() ? config.org.default_currency : c;
}

}  // namespace

Result<IntentResult> update_recurring_payment(OperationContext& op) {
  const auto& req = op.req;
  const std::string& given = req.recurring->id;
  auto lookup = find_by_id_or_guid(op.tx, given, "Recurring.Id", "recurring record");
  if (!lookup.ok()) return lookup.errors();
  RecordPtr found = *lookup;
  const SourceConnectorDef* conn = op.config.connector_for_object(found->object);
  if (!conn)
    return make_error(error_code::kInvalidData, "Recurring.Id",
                      "Recurring.Id '" + given + "' is a " + found->object +
                          " record, not the recurring object of a source connector of this org");
  RecordPtr rec = found;
  RecordPtr schedule;
  if (conn->kind == ConnectorKind::kFundraising && found->object == conn->schedule_object) {
    schedule = found;
    rec = op.tx.get(found->text(fields::gift_schedule::kCommitment));
    if (!rec)
      return make_error(error_code::kUncategorised, "Recurring.Id",
                        "Gift commitment schedule " + found->id + " has no gift commitment");
  } else if (conn->kind == ConnectorKind::kFundraising) {
    std::string sid = rec->text(fields::gift_commitment::kCurrentSchedule);
    if (!sid.empty()) schedule = op.tx.get(sid);
  }

  // Spec 4.1 rule 4: a record of a non-default connector needs Settings.SourceConnector.
  const SourceConnectorDef* def_conn = op.config.default_source_connector();
  if (req.source_connector.empty()) {
    if (conn != def_conn)
      return make_error(
          error_code::kMissingSourceConnectorParameter, "Settings.SourceConnector",
          "Recurring.Id " + rec->id + " is a " + rec->object + " of source connector " +
              conn->name + ", not of the default connector" +
              (def_conn ? " " + def_conn->name : std::string()) +
              ": send Settings.SourceConnector '" + conn->name + "' (spec 4.1 rule 4)");
  } else if (op.settings.connector != conn) {
    return make_error(error_code::kInvalidData, "Settings.SourceConnector",
                      "Settings.SourceConnector '" + req.source_connector + "' does not match " +
                          "Recurring.Id " + rec->id + ", a " + rec->object +
                          " of source connector " + conn->name);
  }
  op.settings.connector = conn;
  if (const std::string ended = finished_status(*rec, conn->kind); !ended.empty())
    return make_error(error_code::kInvalidData, "Recurring.Id",
                      "Recurring.Id " + rec->id + " is a " + rec->object + " with status " + ended +
                          ": a finished series cannot be changed; set up a new recurring "
                          "payment instead");

  ApiErrors errors;
  auto resolved = resolve_recurring_method(op, "update");
  collect(errors, resolved);
  std::optional<Money> first;
  const std::string currency = currency_of(*rec, op.config);
  if (req.one_time && req.one_time->amount) {
    auto a = resolve_amount(op.config, *req.one_time->amount,
                            req.one_time->currency.empty() ? currency : req.one_time->currency,
                            "OneTime.Amount");
    collect(errors, a);
    if (a.ok()) first = *a;
  }
  const CommonParameters common = resolve_common_parameters(op, errors);
  if (!req.recurring->crm_fields.empty())
    errors.push_back(make_error(error_code::kInvalidData, "Recurring.CrmFields",
                                "An update changes the payment method only (spec 4.1); "
                                "Recurring.CrmFields cannot be combined with Recurring.Id"));
  if (!errors.empty()) return errors;
  const ResolvedMethod* method = &resolved->method;

  auto [contact, account] = payer_of(op, *rec, conn->kind);
  stage_package_actions(op, resolved->actions, contact, account);
  std::string campaign_id =
      common.campaign.empty() ? campaign_of(*rec, conn->kind) : common.campaign;

  // The previous mandate ends; a new one and the profile take over.
  if (auto old_id = rec->text(fields::recurring::kMandate); !old_id.empty())
    if (auto old = op.tx.get(old_id)) {
      Record m = *old;
      m.modified = op.now;
      m.fields[fields::mandate::kStatus] = "Inactive";
      m.fields[fields::mandate::kDeactivationDate] = format_date(date_of(op.now));
      op.tx.put(m);
    }
  Record profile = upsert_payment_profile(op, *resolved, contact, account);
  Record mandate = new_mandate(op, *resolved, contact, account, conn->kind, rec->id);
  mandate.fields[fields::mandate::kPaymentProfile] = profile.id;

  Record updated = *rec;
  updated.modified = op.now;
  auto& x = updated.fields;
  namespace r = fields::recurring;
  x[r::kMethod] = method->method->name;
  x[r::kProcessor] = method->processor->name;
  if (method->target)
    x[r::kTarget] = method->target->name;
  else
    x.erase(r::kTarget);
  x[r::kMandate] = mandate.id;
  x[r::kPaymentProfile] = profile.id;
  // Out of the collection index until a hosted page activates the new mandate.
  updated.awaiting_payer = mandate.text(fields::mandate::kStatus) == "Pending";
  // A series that waited for a page nobody paid is collectable from today.
  if (rec->awaiting_payer && !updated.awaiting_payer)
    start_collecting(op.config, op.tx, updated, date_of(op.now));
  x[r::kPaymentIntentId] = op.payment_intent_id;
  x[r::kSourceConnector] = conn->name;

  std::optional<Record> inst;
  if (first)
    inst = new_initial_installment(op, *first, *method, contact, account, campaign_id,
                                   common.installment_crm, *conn, updated, schedule.get(), mandate,
                                   profile);
  std::string redirect =
      method->processor->hosted_page
          ? open_recurring_session(op, *method, inst ? &*inst : nullptr, updated.id, currency)
          : "";
  if (!redirect.empty()) {
    x[r::kSetupUrl] = redirect;
    if (inst) inst->fields[fields::installment::kPayUrl] = redirect;
  }
  if (conn->kind == ConnectorKind::kNative)
    x[fields::recurring_payment::kStatus] = redirect.empty() ? "Active" : "Pending";
  if (schedule) {
    Record s = *schedule;
    s.modified = op.now;
    s.fields[fields::gift_schedule::kPaymentMethod] = schedule_payment_method(*method);
    op.tx.put(s);
  }

  Record report = new_recurring_report(op, common.report_crm, updated, contact, account,
                                       campaign_id, *method, inst ? &*inst : nullptr);
  op.tx.put(updated);
  op.tx.put(mandate);
  return finish_recurring_intent(op, std::move(report), std::move(inst), *method, redirect);
}

}  // namespace fake_org
