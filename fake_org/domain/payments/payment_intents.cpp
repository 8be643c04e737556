#include "payment_intents.h"

#include <set>

#include "domain/config/crm_fields_values.h"
#include "domain/config/guided_matching.h"
#include "domain/core/currency.h"
#include "domain/core/fields.h"
#include "domain/core/ids.h"
#include "domain/payments/internal/payment_intent_ops.h"
#include "domain/store/idempotency.h"
#include "domain/store/record_store.h"
#include "util/json_text.h"
#include "views.h"

namespace fake_org {

// ---- shared steps ----------------------------------------------------------

Result<Money> resolve_amount(const OrgConfig& config, const nlohmann::json& amount,
                             const std::string& currency, const std::string& path) {
  std::string iso = currency.empty() ? config.org.default_currency : currency;
  std::string currency_field = path.substr(0, path.rfind('.')) + ".CurrencyISOCode";
  auto scale = currency_minor_units(iso);
  if (!scale)
    return make_error(error_code::kInvalidData, currency_field,
                      currency_field + " '" + iso + "' is not an ISO 4217 currency code");
  if (!config.has_currency(iso)) {
    std::string list;
    for (const auto& c : config.org.currencies) list += (list.empty() ? "" : ", ") + c;
    return make_error(
        error_code::kInvalidData, currency_field,
        currency_field + " '" + iso + "' is not enabled in this org; enabled: " + list);
  }
  auto money = parse_amount(amount, *scale, iso, path);
  if (!money.ok()) return money;
  if (money->minor <= 0)
    return make_error(
        error_code::kInvalidData, path,
        path + " must be greater than zero, got " + text::json_text(amount) + " (spec 2.4)");
  return money;
}

Result<std::string> resolve_campaign(OperationContext& op) {
  const std::string& given = op.req.campaign_id;
  if (given.empty()) return std::string();
  auto id18 = to_id18(given);
  if (!id18 && given.size() == 18 && is_record_id(given.substr(0, 15)))
    return make_error(error_code::kInvalidData, "CampaignId",
                      "CampaignId '" + given + "' is not a record id: its last three characters " +
                          "are not the case-safe suffix of its first 15 (that would be " +
                          given.substr(0, 15) + record_id_suffix(given.substr(0, 15)) +
                          "); was it retyped with another case?");
  if (!id18)
    return make_error(
        error_code::kInvalidData, "CampaignId",
        "CampaignId '" + given + "' is not a record id (15 or 18 letters and digits)");
  auto rec = op.tx.get(*id18);
  if (!rec || rec->object != objects::kCampaign) {
    op.notes.push_back("CampaignId " + given +
                       " names no campaign of this org; the records were created "
                       "without a campaign (spec 2.3: linked only when valid)");
    return std::string();
  }
  return *id18;
}

Record new_installment(OperationContext& op, const Money& amount, const ResolvedMethod& method,
                       const std::string& contact_id, const std::string& account_id,
                       const std::string& campaign_id) {
  namespace f = fields::installment;
  const ObjectDef* def = op.config.object(objects::kInstallment);
  Record r;
  r.object = objects::kInstallment;
  r.id = op.org.ids().record_id(def ? def->key_prefix : "a0F");
  r.guid = op.org.ids().guid();
  r.created = r.modified = op.now;
  auto& x = r.fields;
  x[fields::kName] = "INST-" + r.id.substr(9, 6);
  x[f::kStatus] = op.config.org.installment_initial_status;
  x[f::kAmount] = amount.to_json_number();
  x.set_same(f::kAmountOpen, f::kAmount);  // the amount's bytes, kept once
  x[fields::kCurrency] = amount.currency;
  x[f::kDueDate] = format_date(date_of(op.now));
  if (!contact_id.empty()) x[f::kContact] = contact_id;
  if (!account_id.empty()) x[f::kAccount] = account_id;
  if (!campaign_id.empty()) x[f::kCampaign] = campaign_id;
  x[f::kMethod] = method.method->name;
  x[f::kProcessor] = method.processor->name;
  if (method.target) x[f::kTarget] = method.target->name;
  x[f::kSourceConnector] = op.settings.connector->name;
  x[f::kPaymentIntentId] = op.payment_intent_id;
  if (!op.req.origin.empty()) x[f::kOrigin] = op.req.origin;
  x[f::kSuccessUrl] = op.req.success_url;
  x[f::kFailureUrl] = op.req.failure_url;
  if (!op.req.webhook_url.empty()) x[f::kWebhookUrl] = op.req.webhook_url;
  if (def && def->default_record_type())
    x[fields::kRecordTypeName] = def->default_record_type()->name;
  return r;
}

std::string open_session_if_hosted(OperationContext& op, const ResolvedMethod& method,
                                   const Record& installment, const std::string& recurring_id) {
  if (!method.processor->hosted_page) return "";
  PspSession s;
  s.id = "cs_" + op.org.ids().random_base36(24);
  s.payment_intent_id = op.payment_intent_id;
  s.installment_id = installment.id;
  s.recurring_id = recurring_id;
  s.method = method.method->name;
  s.kind = method.method->kind;
  s.processor = method.processor->name;
  s.target = method.target ? method.target->name : "";
  s.currency = installment.text(fields::kCurrency);
  if (auto a = installment.get(fields::installment::kAmountOpen)) s.amount = *a;
  s.success_url = op.req.success_url;
  s.failure_url = op.req.failure_url;
  s.created = op.now;
  std::string url = op.intent.public_base_url + "/psp/checkout/" + s.id;
  op.session = std::move(s);
  return url;
}

Record new_inbound_report(OperationContext& op, const nlohmann::json& crm_values) {
  namespace f = fields::inbound_report;
  const ObjectDef* def = op.config.object(objects::kInboundReport);
  Record r;
  r.object = objects::kInboundReport;
  r.id = op.org.ids().record_id(def ? def->key_prefix : "a0J");
  r.guid = op.org.ids().guid();
  r.created = r.modified = op.now;
  auto& x = r.fields;
  for (const auto& [k, v] : crm_values.items()) x[k] = v;
  x[f::kPaymentIntentId] = op.payment_intent_id;
  x.set_same(fields::kName, f::kPaymentIntentId);
  x[f::kStatus] = "New";
  x[f::kProcessingType] = op.settings.processing_type->name;
  x[f::kOperation] = to_string(op.req.operation);
  x[f::kInterface] = op.req.interface_name;
  if (!op.req.origin.empty()) x[f::kOrigin] = op.req.origin;
  if (!op.req.webhook_url.empty()) x[f::kWebhookUrl] = op.req.webhook_url;
  x[f::kSuccessUrl] = op.req.success_url;
  x[f::kFailureUrl] = op.req.failure_url;
  if (!op.req.idempotency_key.empty()) x[f::kIdempotencyKey] = op.req.idempotency_key;
  if (op.intent.received_body.empty())
    x[f::kRawRequest] = text::json_text(op.req.raw);
  else
    x.set(f::kRawRequest, op.intent.received_body);
  x[f::kSourceConnector] = op.settings.connector->name;
  return r;
}

DomainEvent installment_event(OperationContext& op, const char* type, const Record& installment) {
  return event_with_data(type, op.payment_intent_id, op.req.webhook_url,
                         [&] { return installment_webhook_view(op.org, op.tx, installment); });
}

void finish_inbound_report(OperationContext& op, Record report,
                           std::vector<DomainEvent> created_events) {
  namespace f = fields::inbound_report;
  // New -> Processing -> Matched | Guided Review | Failed, within this request
  // (docs/decisions.md): clients polling GET /PaymentIntent see the end state,
  // so the transaction stages only that; the created event's view is built
  // now, from the report as it is (event_with_data builds it at once).
  op.events.push_back(event_with_data(event_type::kIntentCreated, op.payment_intent_id,
                                      op.req.webhook_url,
                                      [&] { return payment_intent_view(op.org, op.tx, report); }));
  for (auto& e : created_events) op.events.push_back(std::move(e));

  std::string status = "Matched";
  std::vector<std::string> reasons = op.review_reasons;
  for (const auto& hit : evaluate_rules(*op.settings.processing_type, op.req.raw)) {
    reasons.push_back(hit.reason);
    if (hit.outcome == "Failed")
      status = "Failed";
    else if (status != "Failed")
      status = "Guided Review";
  }
  if (!op.review_reasons.empty() && status == "Matched") status = "Guided Review";
  report.fields[f::kStatus] = status;
  std::string joined;
  for (const auto& r : reasons) joined += (joined.empty() ? "" : "\n") + r;
  if (!joined.empty())
    report.fields[status == "Failed" ? f::kErrorMessage : f::kReviewReason] = joined;
  // The client's own notes (root CrmFields, spec 2.1) come first; the org's follow.
  std::string notes = report.text(f::kNotes);
  for (const auto& n : op.notes) notes += (notes.empty() ? "" : "\n") + n;
  if (!notes.empty()) report.fields[f::kNotes] = notes;
  if (status == "Matched") report.fields[f::kProcessedDate] = format_iso8601(op.now);
  report.modified = op.now;
  const RecordPtr staged = op.tx.put(std::move(report));
  const char* final_type = status == "Matched"         ? event_type::kIntentProcessed
                           : status == "Guided Review" ? event_type::kIntentInReview
                                                       : event_type::kIntentFailed;
  op.events.push_back(event_with_data(final_type, op.payment_intent_id, op.req.webhook_url,
                                      [&] { return payment_intent_view(op.org, op.tx, *staged); }));
}

// ---- the service -----------------------------------------------------------

namespace {

// The root parameters the org stores (on the inbound report and the
// installment) must fit those fields, as CrmFields must: a real org's insert
// would fail on a value too long (STRING_TOO_LONG), so the fake refuses it
// with 200 rather than keep what no org could hold.
Status check_stored_parameters(const OrgConfig& config, const PaymentIntentRequest& req) {
  namespace r = fields::inbound_report;
  namespace i = fields::installment;
  struct Stored {
    const char* parameter;
    const std::string& value;
    const char* object;
    const char* field;
  };
  const Stored stored[] = {
      {"Origin", req.origin, objects::kInboundReport, r::kOrigin},
      {"IdempotencyKey", req.idempotency_key, objects::kInboundReport, r::kIdempotencyKey},
      {"WebhookURL", req.webhook_url, objects::kInboundReport, r::kWebhookUrl},
      {"SuccessURL", req.success_url, objects::kInboundReport, r::kSuccessUrl},
      {"FailureURL", req.failure_url, objects::kInboundReport, r::kFailureUrl},
      {"Origin", req.origin, objects::kInstallment, i::kOrigin},
      {"WebhookURL", req.webhook_url, objects::kInstallment, i::kWebhookUrl},
      {"SuccessURL", req.success_url, objects::kInstallment, i::kSuccessUrl},
      {"FailureURL", req.failure_url, objects::kInstallment, i::kFailureUrl},
  };
  ApiErrors errors;
  std::set<std::string> reported;
  // A URL field's verdict depends on its length only: a value already
  // accepted by a URL field as long is not checked again.
  const FieldDef* accepted[std::size(stored)] = {};
  for (size_t n = 0; n < std::size(stored); ++n) {
    const Stored& s = stored[n];
    if (s.value.empty() || reported.count(s.parameter)) continue;
    const ObjectDef* object = config.object(s.object);
    const FieldDef* field = object ? object->field(s.field) : nullptr;
    if (!field) continue;
    const auto same_url = [&](size_t m) {
      return accepted[m] && &stored[m].value == &s.value && accepted[m]->type == FieldType::kUrl &&
             field->type == FieldType::kUrl && accepted[m]->length == field->length;
    };
    bool known = false;
    for (size_t m = 0; m < n && !known; ++m) known = same_url(m);
    if (known) continue;
    crm_detail::Checked c = crm_detail::check_value(*object, *field, s.value, &config);
    if (c.reason.empty()) {
      accepted[n] = field;
      continue;
    }
    reported.insert(s.parameter);
    errors.push_back(make_error(error_code::kInvalidData, s.parameter,
                                std::string(s.parameter) + " is stored in " + s.object + "." +
                                    s.field + ", and the value " + c.reason));
  }
  if (!errors.empty()) return errors;
  return ok_status();
}

}  // namespace

Result<IntentResult> PaymentIntents::create(nlohmann::json body, const IntentContext& ctx) {
  auto parsed = parse_payment_intent_request(std::move(body));
  if (!parsed.ok()) return parsed.errors();
  const PaymentIntentRequest& req = *parsed;
  if (Status s = check_stored_parameters(org_.config(), req); !s.ok()) return s.errors();
  if (req.idempotency_key.empty()) return execute(req, ctx);

  std::string digest = body_digest(req.raw);
  auto claim = org_.idempotency().claim(req.idempotency_key, digest, org_.clock().now());
  if (claim.verdict == IdempotencyStore::Verdict::kConflict)
    return make_error(
        error_code::kUncategorised, "IdempotencyKey",
        "IdempotencyKey '" + req.idempotency_key +
            "' was already used with a different request body; use a new key for a new request",
        ErrorKind::kConflict);
  if (claim.verdict == IdempotencyStore::Verdict::kReplay)
    return IntentResult{claim.response, claim.response.value("Id", ""), true};
  // Abandoned on failure and on an exception (the server answers 500), so the
  // key is never left in flight. Completed in the commit: with a data
  // directory the entry is queued with the records, so no flush (a concurrent
  // request's) can write the intent without it and a crash cannot lose it
  // (decisions 78).
  IdempotencyStore::Pending pending(org_.idempotency(), req.idempotency_key);
  return execute(req, ctx, {}, [&](nlohmann::json response) {
    pending.complete(std::move(response),
                     org_.clock().now() + org_.config().org.idempotency_window);
  });
}

namespace {

// Inside the transaction, after the operation: what its inbound report links.
IntentRecords records_of(const Transaction& tx, const std::string& payment_intent_id) {
  namespace f = fields::inbound_report;
  IntentRecords out;
  auto ids = tx.find(index_name::kReportByIntent, {payment_intent_id});
  if (ids.empty()) return out;
  RecordPtr report = tx.get(ids.front());
  out.contact_id = report->text(f::kContact);
  out.account_id = report->text(f::kAccount);
  out.installment_id = report->text(f::kInstallment);
  out.recurring_id = report->text(f::kRecurringId);
  // The committed records are still the state before the request.
  out.contact_existed = !out.contact_id.empty() && tx.get_committed(out.contact_id) != nullptr;
  out.account_existed = !out.account_id.empty() && tx.get_committed(out.account_id) != nullptr;
  if (!out.contact_id.empty())
    if (RecordPtr c = tx.get(out.contact_id)) {
      auto person = c->get("IsPersonAccount");
      out.person_account = person && person->is_boolean() && person->get<bool>();
    }
  if (!out.recurring_id.empty())
    if (RecordPtr r = tx.get(out.recurring_id))
      out.payment_profile_id = r->text(fields::recurring::kPaymentProfile);
  return out;
}

}  // namespace

Result<IntentResult> PaymentIntents::run(const PaymentIntentRequest& req, const IntentContext& ctx,
                                         const AfterOperation& after) {
  if (Status s = check_stored_parameters(org_.config(), req); !s.ok()) return s.errors();
  return execute(req, ctx, after);
}

Result<IntentResult> PaymentIntents::execute(const PaymentIntentRequest& req,
                                             const IntentContext& ctx, const AfterOperation& after,
                                             const std::function<void(nlohmann::json)>& on_commit) {
  auto settings = resolve_settings(org_.config(), req);
  if (!settings.ok()) return settings.errors();
  std::string pi_id = org_.ids().payment_intent_id();
  std::optional<PspSession> session;
  nlohmann::json committed_body;  // for on_commit, from the run that commits
  auto result = org_.write_publishing<IntentResult>(
      [&](Transaction& tx, std::vector<DomainEvent>& events) -> Result<IntentResult> {
        session.reset();  // from a run that met a conflicting commit
        OperationContext op(org_, tx, org_.clock().now(), req, ctx, pi_id, *settings);
        Result<IntentResult> r = [&]() -> Result<IntentResult> {
          switch (req.operation) {
            case Operation::kNewOneTime:
              return new_one_time_payment(op);
            case Operation::kPayInstallment:
              return pay_existing_installment(op);
            case Operation::kNewRecurring:
              return new_recurring_payment(op);
            case Operation::kUpdateRecurring:
              return update_recurring_payment(op);
          }
          return make_error(error_code::kUncategorised, "", "unknown operation");
        }();
        if (r.ok()) {
          r->records = records_of(tx, pi_id);
          if (after)
            if (Status s = after(tx, r->records); !s.ok()) return s.errors();
          session = std::move(op.session);
          events = std::move(op.events);
          if (on_commit) committed_body = r->body;
        }
        return r;
      },
      // Committed: the hosted page's session may now be opened.
      [&] {
        if (session) org_.psp_sessions().put(std::move(*session));
        if (on_commit) on_commit(std::move(committed_body));
      },
      // The operation reads the store only through its transaction and
      // changes nothing else, so it runs beside other requests.
      Org::Locking::kOptimistic);
  if (!result.ok()) return result;
  result->payment_intent_id = pi_id;
  return result;
}

namespace {

Status check_intent_id(const std::string& id) {
  if (id.rfind("pi_", 0) != 0)
    return make_error(error_code::kInvalidData, "ID",
                      "'" + id + "' is not a payment intent id: they begin with pi_");
  return ok_status();
}

Result<nlohmann::json> intent_view(const Org& org, const RecordStore& s, const std::string& id) {
  auto ids = s.find(index_name::kReportByIntent, {id});
  RecordPtr report = ids.empty() ? nullptr : s.get(ids.front());
  if (!report)
    return make_error(error_code::kInvalidData, "ID", "No payment intent " + id + " in this org",
                      ErrorKind::kNotFound);
  return payment_intent_view(org, s, *report);
}

}  // namespace

Result<nlohmann::json> PaymentIntents::get(std::string_view payment_intent_id) const {
  std::string id(payment_intent_id);
  if (auto bad = check_intent_id(id); !bad.ok()) return bad.errors();
  return org_.records().read(
      [&](const RecordStore& s) -> Result<nlohmann::json> { return intent_view(org_, s, id); });
}

Result<std::shared_ptr<const std::string>> PaymentIntents::get_text(
    std::string_view payment_intent_id) const {
  std::string id(payment_intent_id);
  if (auto bad = check_intent_id(id); !bad.ok()) return bad.errors();
  uint64_t version = 0;
  std::shared_ptr<const std::string> kept;
  auto view = org_.records().read([&](const RecordStore& s) -> Result<nlohmann::json> {
    version = s.version();
    if ((kept = texts_->find(id, version))) return nlohmann::json();
    return intent_view(org_, s, id);
  });
  if (kept) return kept;
  if (!view.ok()) return view.errors();
  // Serialised after the store's lock is released: writers wait for no dump.
  auto text = std::make_shared<const std::string>(text::json_text(*view));
  texts_->put(id, version, text);
  return text;
}

Result<nlohmann::json> PaymentIntents::installment(std::string_view id_or_guid) const {
  // One read: the id is resolved and the view built under the same lock.
  return org_.records().read([&](const RecordStore& s) -> Result<nlohmann::json> {
    auto rec = Org::find_record(s, id_or_guid, "installment");
    if (!rec.ok()) return rec.errors();
    if ((*rec)->object != objects::kInstallment)
      return make_error(
          error_code::kInvalidData, "ID",
          std::string(id_or_guid) + " is a " + (*rec)->object + " record, not an installment",
          ErrorKind::kNotFound);
    return installment_view(org_, s, **rec);
  });
}

}  // namespace fake_org
