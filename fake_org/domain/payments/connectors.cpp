#include "connectors.h"

#include "domain/core/fields.h"

namespace fake_org {

namespace {

using From = SetupValue::From;

ConnectorDescriptor native() {
  namespace f = fields::recurring_payment;
  ConnectorDescriptor d;
  d.kind = ConnectorKind::kNative;
  d.name = "native";
  d.recurring_object = objects::kRecurringPayment;
  d.name_prefix = "RP-";
  d.label = "Recurring payment";
  d.terms.amount = f::kAmount;
  d.terms.frequency = f::kFrequency;
  d.terms.start_date = f::kStartDate;
  d.terms.end_date = f::kEndDate;
  d.next_due = f::kNextCollectionDate;
  d.status = f::kStatus;
  d.ended_status = "Completed";
  d.finished_statuses = {"Completed", "Cancelled"};
  d.pending_while_payer_acts = true;
  d.contact = f::kContact;
  d.account = f::kAccount;
  d.campaign = f::kCampaign;
  d.description = fields::recurring::kDescription;
  d.installment_link = fields::installment::kRecurringPayment;
  d.mandate_link = fields::mandate::kRecurringPayment;
  return d;
}

ConnectorDescriptor nonprofit() {
  namespace f = fields::recurring_donation;
  ConnectorDescriptor d;
  d.kind = ConnectorKind::kNonprofit;
  d.name = "nonprofit";
  d.creates_households = true;
  d.recurring_object = objects::kRecurringDonation;
  d.name_prefix = "RD-";
  d.label = "Recurring donation";
  d.terms.amount = f::kAmount;
  d.terms.frequency = f::kPeriod;
  d.terms.start_date = f::kStartDate;
  d.terms.end_date = f::kEndDate;
  d.next_due = f::kNextPaymentDate;
  d.status = f::kStatus;
  d.ended_status = "Closed";
  d.finished_statuses = {"Closed"};
  d.contact = f::kContact;
  d.account = f::kOrganization;
  d.campaign = f::kCampaign;
  d.description = fields::recurring::kDescription;
  d.record_setup = {{f::kDateEstablished, From::kToday},
                    {f::kOpenEndedStatus, From::kByEnd, "Closed", "Open"},
                    {f::kRecurringType, From::kByEnd, "Fixed", "Open"}};
  d.installment_link = fields::installment::kRecurringDonation;
  d.mandate_link = fields::mandate::kRecurringDonation;
  return d;
}

// Salesforce Fundraising: the commitment is the recurring record, its current
// schedule holds the terms.
ConnectorDescriptor fundraising() {
  namespace f = fields::gift_commitment;
  namespace s = fields::gift_schedule;
  ConnectorDescriptor d;
  d.kind = ConnectorKind::kFundraising;
  d.name = "fundraising";
  d.recurring_object = objects::kGiftCommitment;
  d.name_prefix = "RP-";
  d.label = "Gift commitment";
  d.terms.amount = s::kAmount;
  d.terms.frequency = s::kPeriod;
  d.terms.interval = s::kInterval;
  d.terms.start_date = s::kStartDate;
  d.terms.end_date = s::kEndDate;
  d.next_due = f::kNextTransactionDate;
  d.status = f::kStatus;
  d.ended_status = "Closed";
  d.finished_statuses = {"Closed"};
  d.account = f::kDonor;
  d.campaign = f::kCampaign;
  d.description = f::kDescription;
  d.record_setup = {{f::kScheduleType, From::kText, "Recurring"},
                    {f::kEffectiveStartDate, From::kStartDate},
                    {f::kExpectedEndDate, From::kEndDate},
                    {f::kNextTransactionAmount, From::kAmount}};
  d.payer_needs_account = true;
  d.installment_link = fields::installment::kGiftCommitment;
  d.mandate_link = fields::mandate::kGiftCommitment;
  d.schedule.object = objects::kGiftCommitmentSchedule;
  d.schedule.key_prefix = "6cs";
  d.schedule.name_prefix = "GCS-";
  d.schedule.label = "Gift commitment schedule";
  d.schedule.record_crm_prefix = "GiftCommitment.";
  d.schedule.record_link = s::kCommitment;
  d.schedule.current = f::kCurrentSchedule;
  d.schedule.installment_link = fields::installment::kGiftCommitmentSchedule;
  d.schedule.campaign = s::kCampaign;
  d.schedule.payment_method = s::kPaymentMethod;
  d.schedule.setup = {{s::kType, From::kText, "CreateTransactions"}};
  return d;
}

}  // namespace

const std::vector<ConnectorDescriptor>& connector_descriptors() {
  static const std::vector<ConnectorDescriptor> table = {native(), nonprofit(), fundraising()};
  return table;
}

const ConnectorDescriptor& descriptor(ConnectorKind kind) {
  for (const auto& d : connector_descriptors())
    if (d.kind == kind) return d;
  return connector_descriptors().front();
}

const ConnectorDescriptor* descriptor_named(std::string_view name) {
  for (const auto& d : connector_descriptors())
    if (name == d.name) return &d;
  return nullptr;
}

const char* to_string(ConnectorKind v) {
  return descriptor(v).name;
}

RecordPtr schedule_of(const RecordReader& reader, const ConnectorDescriptor& d,
                      const Record& record) {
  if (!d.has_schedule()) return nullptr;
  const std::string id = record.text(d.schedule.current);
  return id.empty() ? nullptr : reader.get(id);
}

std::optional<SeriesRecords> series_records(const RecordReader& reader,
                                            const SourceConnectorDef& conn, RecordPtr found) {
  const ConnectorDescriptor& d = descriptor(conn);
  if (!d.has_schedule() || found->object != conn.schedule_object)
    return SeriesRecords{found, schedule_of(reader, d, *found)};
  RecordPtr record = reader.get(found->text(d.schedule.record_link));
  if (!record) return std::nullopt;
  return SeriesRecords{std::move(record), std::move(found)};
}

std::optional<SeriesTerms> series_terms(const ConnectorDescriptor& d, const Record& record,
                                        const Record* schedule) {
  if (d.has_schedule() && !schedule) return std::nullopt;
  const Record& r = schedule ? *schedule : record;
  SeriesTerms t;
  if (auto a = r.get(d.terms.amount)) t.amount = *a;
  t.frequency = r.text(d.terms.frequency);
  if (d.terms.interval)
    if (auto i = r.get(d.terms.interval); i && i->is_number_integer()) t.interval = i->get<int>();
  t.start_date = r.text(d.terms.start_date);
  t.end_date = r.text(d.terms.end_date);
  return t;
}

SeriesParties series_parties(const ConnectorDescriptor& d, const Record& record) {
  SeriesParties p;
  if (d.contact) p.contact = record.text(d.contact);
  p.account = record.text(d.account);
  p.campaign = record.text(d.campaign);
  return p;
}

}  // namespace fake_org
