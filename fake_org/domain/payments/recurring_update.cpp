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
#include "collection_run.h"
#include "connectors.h"
#include "domain/banking/bank_parameters.h"
#include "domain/config/crm_fields.h"
#include "domain/core/fields.h"
#include "domain/payments/internal/payment_intent_ops.h"
#include "domain/payments/internal/recurring_ops.h"
#include "util/ascii.h"
#include "views.h"

namespace fake_org {

namespace {

// Recurring.Id: the recurring record (and schedule) of one of the org's connectors.
struct UpdatedSeries {
  const SourceConnectorDef* connector = nullptr;
  SeriesRecords records;
};

Result<UpdatedSeries> find_series(const OperationContext& op) {
  const std::string& given = op.req.recurring->id;
  auto lookup = find_by_id_or_guid(op.tx, given, "Recurring.Id", "recurring record");
  if (!lookup.ok()) return lookup.errors();
  RecordPtr found = *lookup;
  const SourceConnectorDef* conn = op.config.connector_for_object(found->object);
  if (!conn)
    return make_error(error_code::kInvalidData, "Recurring.Id",
                      "Recurring.Id '" + given + "' is a " + found->object +
                          " record, not the recurring object of a source connector of this org");
  auto records = series_records(op.tx, *conn, found);
  if (!records) {
    const ConnectorDescriptor& d = descriptor(*conn);
    return make_error(
        error_code::kUncategorised, "Recurring.Id",
        std::string(d.schedule.label) + " " + found->id + " has no " + ascii_lower(d.label));
  }
  return UpdatedSeries{conn, *records};
}

// Spec 4.1 rule 4: a record of a non-default connector needs Settings.SourceConnector.
Status check_source_connector(const OperationContext& op, const SourceConnectorDef& conn,
                              const Record& rec) {
  const SourceConnectorDef* def_conn = op.config.default_source_connector();
  if (op.req.source_connector.empty()) {
    if (&conn != def_conn)
      return make_error(
          error_code::kMissingSourceConnectorParameter, "Settings.SourceConnector",
          "Recurring.Id " + rec.id + " is a " + rec.object + " of source connector " + conn.name +
              ", not of the default connector" + (def_conn ? " " + def_conn->name : std::string()) +
              ": send Settings.SourceConnector '" + conn.name + "' (spec 4.1 rule 4)");
  } else if (op.settings.connector != &conn) {
    return make_error(error_code::kInvalidData, "Settings.SourceConnector",
                      "Settings.SourceConnector '" + op.req.source_connector + "' does not match " +
                          "Recurring.Id " + rec.id + ", a " + rec.object + " of source connector " +
                          conn.name);
  }
  return ok_status();
}

// A series that has ended (native Completed or Cancelled, donation and
// commitment Closed) collects nothing any more (the clock dropped its next
// due date), so an update cannot bring it back (decisions row 44).
Status check_not_finished(const ConnectorDescriptor& d, const Record& rec) {
  const std::string status = rec.text(d.status);
  for (const auto& finished : d.finished_statuses)
    if (status == finished)
      return make_error(error_code::kInvalidData, "Recurring.Id",
                        "Recurring.Id " + rec.id + " is a " + rec.object + " with status " +
                            status +
                            ": a finished series cannot be changed; set up a new recurring "
                            "payment instead");
  return ok_status();
}

// Contact and account of an existing recurring record: the current
// mandate's, else the record's own lookups.
std::pair<std::string, std::string> payer_of(const OperationContext& op, const Record& rec,
                                             const ConnectorDescriptor& d) {
  std::string contact, account;
  if (auto m = rec.text(fields::recurring::kMandate); !m.empty())
    if (auto mandate = op.tx.get(m)) {
      contact = mandate->text(fields::mandate::kContact);
      account = mandate->text(fields::mandate::kAccount);
    }
  if (!contact.empty() || !account.empty()) return {contact, account};
  const SeriesParties own = series_parties(d, rec);
  contact = own.contact;
  account = own.account;
  if (!d.contact)
    if (auto a = op.tx.get(account)) contact = a->text("PersonContactId");
  return {contact, account};
}

std::string currency_of(const Record& rec, const OrgConfig& config) {
  std::string c = rec.text(fields::kCurrency);
  return c.empty() ? config.org.default_currency : c;
}

// What the request asks, checked before anything is staged.
struct UpdateInput {
  RecurringMethod method;
  std::optional<Money> first;  // the initial payment of OneTime
  CommonParameters common;
};

Result<UpdateInput> check_update(OperationContext& op, const std::string& currency) {
  const auto& req = op.req;
  ApiErrors errors;
  auto resolved = resolve_recurring_method(op, "update");
  collect(errors, resolved);
  if (resolved.ok())
    collect(errors, validate_scheme_currency(resolved->method, currency, "PaymentMethod.Name"));
  std::optional<Money> first;
  if (req.one_time && req.one_time->amount) {
    auto a = resolve_amount(op.config, *req.one_time->amount,
                            req.one_time->currency.empty() ? currency : req.one_time->currency,
                            "OneTime.Amount");
    collect(errors, a);
    if (a.ok()) first = *a;
  }
  CommonParameters common = resolve_common_parameters(op, errors);
  if (!req.recurring->crm_fields.empty())
    errors.push_back(make_error(error_code::kInvalidData, "Recurring.CrmFields",
                                "An update changes the payment method only (spec 4.1); "
                                "Recurring.CrmFields cannot be combined with Recurring.Id"));
  if (!errors.empty()) return errors;
  return UpdateInput{*resolved, first, std::move(common)};
}

// The previous mandate ends today.
void end_mandate(OperationContext& op, const Record& rec) {
  auto old_id = rec.text(fields::recurring::kMandate);
  if (old_id.empty()) return;
  if (auto old = op.tx.get(old_id)) {
    Record m = *old;
    m.modified = op.now;
    m.fields[fields::mandate::kStatus] = "Inactive";
    m.fields[fields::mandate::kDeactivationDate] = format_date(date_of(op.now));
    op.tx.put(m);
  }
}

// The recurring record with the new method, mandate and profile (not staged).
Record updated_record(OperationContext& op, const SourceConnectorDef& conn, const Record& rec,
                      const ResolvedMethod& method, const Record& mandate, const Record& profile) {
  Record updated = rec;
  updated.modified = op.now;
  auto& x = updated.fields;
  namespace r = fields::recurring;
  x[r::kMethod] = method.method->name;
  x[r::kProcessor] = method.processor->name;
  if (method.target)
    x[r::kTarget] = method.target->name;
  else
    x.erase(r::kTarget);
  x[r::kMandate] = mandate.id;
  x[r::kPaymentProfile] = profile.id;
  // Out of the collection index until a hosted page activates the new mandate.
  updated.awaiting_payer = mandate.text(fields::mandate::kStatus) == "Pending";
  // A series that waited for a page nobody paid is collectable from today.
  if (rec.awaiting_payer && !updated.awaiting_payer)
    start_collecting(op.config, op.tx, updated, date_of(op.now));
  x[r::kPaymentIntentId] = op.payment_intent_id;
  x[r::kSourceConnector] = conn.name;
  return updated;
}

}  // namespace

Result<IntentResult> update_recurring_payment(OperationContext& op) {
  auto series = find_series(op);
  if (!series.ok()) return series.errors();
  const SourceConnectorDef& conn = *series->connector;
  const ConnectorDescriptor& d = descriptor(conn);
  const Record& rec = *series->records.record;
  const Record* schedule = series->records.schedule.get();
  if (Status s = check_source_connector(op, conn, rec); !s.ok()) return s.errors();
  op.settings.connector = &conn;
  if (Status s = check_not_finished(d, rec); !s.ok()) return s.errors();
  const std::string currency = currency_of(rec, op.config);
  auto input = check_update(op, currency);
  if (!input.ok()) return input.errors();
  const ResolvedMethod* method = &input->method.method;

  auto [contact, account] = payer_of(op, rec, d);
  stage_package_actions(op, input->method.actions, contact, account);
  const std::string campaign =
      input->common.campaign.empty() ? series_parties(d, rec).campaign : input->common.campaign;

  end_mandate(op, rec);
  Record profile = upsert_payment_profile(op, input->method, contact, account);
  Record mandate = new_mandate(op, input->method, contact, account, &d, rec.id);
  mandate.fields[fields::mandate::kPaymentProfile] = profile.id;
  Record updated = updated_record(op, conn, rec, *method, mandate, profile);

  std::optional<Record> inst;
  if (input->first)
    inst = new_initial_installment(op, *input->first, *method, contact, account, campaign,
                                   input->common.installment_crm, conn, updated, schedule, mandate,
                                   profile);
  std::string redirect =
      method->processor->hosted_page
          ? open_recurring_session(op, *method, inst ? &*inst : nullptr, updated.id, currency)
          : "";
  if (!redirect.empty()) {
    updated.fields[fields::recurring::kSetupUrl] = redirect;
    if (inst) inst->fields[fields::installment::kPayUrl] = redirect;
  }
  if (d.pending_while_payer_acts)
    updated.fields[d.status] = redirect.empty() ? d.active_status : "Pending";
  if (schedule) {
    Record s = *schedule;
    s.modified = op.now;
    s.fields[d.schedule.payment_method] = schedule_payment_method(*method);
    op.tx.put(s);
  }

  Record report = new_recurring_report(op, input->common.report_crm, updated, contact, account,
                                       campaign, *method, inst ? &*inst : nullptr);
  op.tx.put(updated);
  op.tx.put(mandate);
  return finish_recurring_intent(op, std::move(report), std::move(inst), *method, redirect);
}

}  // namespace fake_org
