#include "collection_run.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "collections.h"
#include "connectors.h"
#include "domain/banking/bank_account.h"
#include "domain/core/fields.h"
#include "domain/core/ids.h"
#include "domain/core/schedule.h"
#include "domain/store/record_store.h"
#include "views.h"

namespace fake_org {

namespace {

namespace fi = fields::installment;

bool collected_inline(const OrgConfig& config, const Record& r) {
  const PaymentMethodDef* m = config.payment_method(r.text(fi::kMethod));
  const ProcessorDef* p = m ? m->processor(r.text(fi::kProcessor)) : nullptr;
  return p && collected_inline(*m, *p);
}

bool open_amount(const Record& r) {
  auto a = r.get(fi::kAmountOpen);
  return a && a->is_number() && a->get<double>() > 0;
}

// One recurring record's series as the scheduler needs it.
struct Series {
  Date start;
  Frequency frequency;
  std::optional<Date> end;
  nlohmann::json amount;
  SeriesParties parties;
  const Record* schedule = nullptr;
};

std::optional<Series> read_series(const ConnectorDescriptor& d, const Record& r,
                                  const Record* schedule) {
  auto terms = series_terms(d, r, schedule);
  if (!terms) return std::nullopt;
  auto start_date = parse_date(terms->start_date);
  auto frequency = parse_frequency(terms->frequency, terms->interval);
  if (!start_date || !frequency || !terms->amount.is_number()) return std::nullopt;
  Series s;
  s.start = *start_date;
  s.frequency = *frequency;
  if (!terms->end_date.empty()) s.end = parse_date(terms->end_date);
  s.amount = terms->amount;
  s.parties = series_parties(d, r);
  s.schedule = schedule;
  return s;
}

std::string iban_returned() {
  return "AC04 Account closed: the bank returned the direct debit (test IBAN " +
         std::string(collection_magic::kIbanFailsAtCollection) + ")";
}

// Why the money will not come, or "" when it will (README: the magic values).
std::string rejection_reason(const Record* profile) {
  if (!profile) return "";
  namespace pp = fields::payment_profile;
  // As the payer typed it: spaces and case do not matter.
  if (iban_electronic_format(profile->text(pp::kIban)) == collection_magic::kIbanFailsAtCollection)
    return iban_returned();
  if (profile->text("cpm__Card_Last_Four__c") == collection_magic::kCardFailsAtCollectionLastFour)
    return "Card declined at collection (test card ending " +
           std::string(collection_magic::kCardFailsAtCollectionLastFour) + ")";
  return "";
}

class Run {
 public:
  Run(Org& org, Transaction& tx, TimePoint now)
      : org_(org), tx_(tx), now_(now), today_(date_of(now)) {}

  void recurring(const SourceConnectorDef& conn, const std::string& id) {
    auto current = tx_.get(id);
    if (!current) return;
    const ConnectorDescriptor& d = descriptor(conn);
    if (current->text(d.status) != d.active_status) return;
    auto mandate = tx_.get(current->text(fields::recurring::kMandate));
    // Waits for the payer: a hosted page activates the mandate (collections.h).
    if (!mandate || mandate->text(fields::mandate::kStatus) != "Active") return;
    RecordPtr schedule = schedule_of(tx_, d, *current);
    auto series = read_series(d, *current, schedule.get());
    auto next = parse_date(current->text(d.next_due));
    if (!series || !next) return;

    // Whose the installments are: the record's own lookups where it has them
    // (native, nonprofit), else the payer the mandate was given by (a gift
    // commitment has only DonorId; a person account's contact is on the
    // mandate), as the installments of the request itself carry them.
    SeriesParties& who = series->parties;
    if (who.contact.empty()) who.contact = mandate->text(fields::mandate::kContact);
    if (who.account.empty()) who.account = mandate->text(fields::mandate::kAccount);
    if (who.contact.empty() && !who.account.empty())
      if (auto donor = tx_.get(who.account)) who.contact = donor->text("PersonContactId");
    Record rec = *current;
    const auto dates = due_dates(series->start, series->frequency, series->end, *next, today_);
    for (const Date& due : dates) {
      Record inst = new_installment(conn, rec, *series, *mandate, due);
      collect_or_reject(inst, mandate->text(fields::mandate::kPaymentProfile));
    }
    Date last = dates.empty() ? add_days(*next, -1) : dates.back();
    Date following = nth_due_date(series->start, series->frequency,
                                  occurrence_at_or_before(series->start, series->frequency, last) +
                                      (last < series->start ? 0 : 1));
    if (series->end && *series->end < following) {
      rec.fields.erase(d.next_due);
      rec.fields[d.status] = d.ended_status;
    } else {
      rec.fields[d.next_due] = format_date(following);
    }
    rec.modified = now_;
    tx_.put(rec);
  }

  void inline_installment(const std::string& id) {
    auto current = tx_.get(id);
    if (!current || !open_amount(*current)) return;
    Record inst = *current;
    std::string profile_id = inst.text(fi::kPaymentProfile);
    if (auto mandate = tx_.get(inst.text(fi::kMandate))) {
      // An ended mandate authorises nothing (paid another way, replaced).
      if (mandate->text(fields::mandate::kStatus) == "Inactive") return;
      if (mandate->has(fields::mandate::kPaymentProfile))
        profile_id = mandate->text(fields::mandate::kPaymentProfile);
    }
    collect_or_reject(inst, profile_id);
  }

  CollectionRunSummary summary;
  std::vector<DomainEvent> events;

 private:
  // A scheduled installment, created on its due date.
  Record new_installment(const SourceConnectorDef& conn, const Record& rec, const Series& s,
                         const Record& mandate, const Date& due) {
    const ObjectDef* def = org_.config().object(objects::kInstallment);
    Record r;
    r.object = objects::kInstallment;
    r.id = org_.ids().record_id(def ? def->key_prefix : "a0F");
    r.guid = org_.ids().guid();
    r.created = r.modified = now_;
    auto& x = r.fields;
    x[fields::kName] = "INST-" + r.id.substr(9, 6);
    if (def && def->default_record_type())
      x[fields::kRecordTypeName] = def->default_record_type()->name;
    x[fi::kStatus] = org_.config().org.installment_initial_status;
    x[fi::kAmount] = s.amount;
    x[fi::kAmountOpen] = s.amount;
    x[fields::kCurrency] = rec.text(fields::kCurrency);
    x[fi::kDueDate] = format_date(due);
    if (!s.parties.contact.empty()) x[fi::kContact] = s.parties.contact;
    if (!s.parties.account.empty()) x[fi::kAccount] = s.parties.account;
    if (!s.parties.campaign.empty()) x[fi::kCampaign] = s.parties.campaign;
    x[fi::kMethod] = rec.text(fields::recurring::kMethod);
    x[fi::kProcessor] = rec.text(fields::recurring::kProcessor);
    if (rec.has(fields::recurring::kTarget)) x[fi::kTarget] = rec.text(fields::recurring::kTarget);
    x[fi::kSourceConnector] = conn.name;
    const ConnectorDescriptor& d = descriptor(conn);
    x[d.installment_link] = rec.id;
    if (s.schedule) x[d.schedule.installment_link] = s.schedule->id;
    x[fi::kMandate] = mandate.id;
    if (mandate.has(fields::mandate::kPaymentProfile))
      x[fi::kPaymentProfile] = mandate.text(fields::mandate::kPaymentProfile);
    // Notifications go where the intent that set the series up asked.
    const std::string pi = rec.text(fields::recurring::kPaymentIntentId);
    x[fi::kPaymentIntentId] = pi;
    for (const auto& report_id : tx_.find(index_name::kReportByIntent, {pi})) {
      if (auto report = tx_.get(report_id)) {
        namespace ir = fields::inbound_report;
        if (report->has(ir::kWebhookUrl)) x[fi::kWebhookUrl] = report->text(ir::kWebhookUrl);
        if (report->has(ir::kSuccessUrl)) x[fi::kSuccessUrl] = report->text(ir::kSuccessUrl);
        if (report->has(ir::kFailureUrl)) x[fi::kFailureUrl] = report->text(ir::kFailureUrl);
      }
      break;
    }
    tx_.put(r);
    ++summary.installments_created;
    events.push_back(event_with_data(event_type::kInstallmentCreated, pi, r.text(fi::kWebhookUrl),
                                     [&] { return installment_webhook_view(org_, tx_, r); }));
    return r;
  }

  // Through the mandate's payment profile (the account the payer gave with
  // the mandate); the magic values decide whether the money comes.
  void collect_or_reject(Record& inst, const std::string& profile_id) {
    RecordPtr profile = profile_id.empty() ? nullptr : tx_.get(profile_id);
    const std::string reason = rejection_reason(profile.get());
    if (!reason.empty()) {
      reject_installment(org_, tx_, inst, reason, now_, events);
      ++summary.rejected;
      return;
    }
    collect_installment(org_, tx_, inst, PspOutcome{}, now_, events);
    ++summary.collected;
  }

  Org& org_;
  Transaction& tx_;
  TimePoint now_;
  Date today_;
};

}  // namespace

void start_collecting(const OrgConfig& config, Transaction& tx, Record& rec, const Date& today) {
  if (config.org.recurring_backfill == "catch_up") return;
  const SourceConnectorDef* conn =
      config.source_connector(rec.text(fields::recurring::kSourceConnector));
  if (!conn || conn->recurring_object != rec.object) conn = config.connector_for_object(rec.object);
  if (!conn) return;
  const ConnectorDescriptor& d = descriptor(*conn);
  RecordPtr schedule = schedule_of(tx, d, rec);
  auto series = read_series(d, rec, schedule.get());
  auto next = parse_date(rec.text(d.next_due));
  if (!series || !next || !(*next < today)) return;
  rec.fields[d.next_due] =
      format_date(std::max(*next, first_due_on_or_after(series->start, series->frequency, today)));
}

bool collected_inline(const PaymentMethodDef& method, const ProcessorDef& processor) {
  return method.kind == MethodKind::kBank && !processor.hosted_page;
}

void add_collection_indexes(const OrgConfig& config, std::vector<IndexSpec>& out) {
  // The config outlives the store that holds these predicates (Org members).
  const OrgConfig* cfg = &config;
  IndexSpec open_inline{
      index_name::kOpenInlineByDueDate, objects::kInstallment, {fi::kDueDate}, false};
  open_inline.ordered = true;
  open_inline.when = [cfg](const Record& r) {
    const std::string status = r.text(fi::kStatus);
    return status != "Collected" && status != "Cancelled" && !r.has(fi::kFailureReason) &&
           open_amount(r) && collected_inline(*cfg, r);
  };
  out.push_back(std::move(open_inline));
  std::set<std::string> seen;
  for (const auto& conn : config.source_connectors) {
    if (!seen.insert(conn.recurring_object).second) continue;
    const ConnectorDescriptor& d = descriptor(conn);
    IndexSpec spec{index_name::kRecurringByNextDuePrefix + conn.recurring_object,
                   conn.recurring_object,
                   {d.next_due},
                   false};
    spec.ordered = true;
    // Only what a run can collect: a series still waiting for its payer's
    // mandate (an abandoned hosted setup) would be read on every clock move.
    spec.when = [status = d.status, active = d.active_status](const Record& r) {
      return !r.awaiting_payer && r.text(status) == active;
    };
    out.push_back(std::move(spec));
  }
}

CollectionRunSummary run_due_collections(Org& org) {
  const TimePoint now = org.clock().now();
  const std::string today = format_date(date_of(now));
  auto result = org.write_publishing<CollectionRunSummary>(
      [&](Transaction& tx, std::vector<DomainEvent>& events) -> Result<CollectionRunSummary> {
        Run run(org, tx, now);
        // Inside write(): the store's lock is held, so its range reads are safe.
        std::set<std::string> seen;
        for (const auto& conn : org.config().source_connectors) {
          if (!seen.insert(conn.recurring_object).second) continue;
          for (const auto& id : org.records().up_to(
                   index_name::kRecurringByNextDuePrefix + conn.recurring_object, today)) {
            // The record's own connector, when several share its object.
            auto rec = tx.get(id);
            const SourceConnectorDef* own =
                rec ? org.config().source_connector(rec->text(fields::recurring::kSourceConnector))
                    : nullptr;
            run.recurring(own && own->recurring_object == conn.recurring_object ? *own : conn, id);
          }
        }
        for (const auto& id : org.records().up_to(index_name::kOpenInlineByDueDate, today))
          run.inline_installment(id);
        events = std::move(run.events);
        return run.summary;
      });
  return result.ok() ? *result : CollectionRunSummary{};
}

}  // namespace fake_org
