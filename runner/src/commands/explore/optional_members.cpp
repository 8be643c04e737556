#include "commands/explore/optional_members.h"

#include "commands/explore/schema_facts.h"

namespace runner::explore {

namespace {

using nlohmann::json;

// ---- values from the facts --------------------------------------------------

json om_text_or_null(const std::string& s) {
  return s.empty() ? json() : json(s);
}

// A parameter's value by its DataType (GET /PaymentMethods, /PackageActions).
json om_parameter_value(const ParameterFact& p, BuildContext& c) {
  if (!p.values.empty()) return c.rng.pick(p.values);
  if (p.type == "Boolean") return c.rng.chance(50);
  if (p.type == "Date") return "2027-02-20";
  if (p.type == "Email") return "explore-" + c.tag + "@example.org";
  if (p.type == "Number" || p.type == "Integer" || p.type == "Decimal") return 1;
  // GET /PackageActions gives no lengths, and the field a text goes to may
  // be short (a postcode's 20): a short text, the same in every case.
  return "Explore";
}

// Every required parameter, and the optional ones drawn (all under kAll).
json om_parameters(const std::vector<ParameterFact>& params, BuildContext& c) {
  json out = json::object();
  for (const auto& p : params)
    if (p.required || c.fill == Fill::kAll || c.rng.chance(50))
      out[p.name] = om_parameter_value(p, c);
  return out;
}

const MethodFact* om_method(BuildContext& c, const json& body) {
  const json::json_pointer name("/PaymentMethod/Name");
  if (!body.contains(name) || !body.at(name).is_string()) return nullptr;
  for (const auto& m : c.facts.methods)
    if (m.name == body.at(name).get<std::string>()) return &m;
  return nullptr;
}

json om_processor(BuildContext& c, json& body) {
  const MethodFact* m = om_method(c, body);
  return m ? om_text_or_null(m->processor) : json();
}

json om_target(BuildContext& c, json& body) {
  const MethodFact* m = om_method(c, body);
  return m && !m->targets.empty() ? json(c.rng.pick(m->targets)) : json();
}

json om_method_parameters(BuildContext& c, json& body) {
  const MethodFact* m = om_method(c, body);
  return m ? om_parameters(m->parameters, c) : json();
}

json om_currency(BuildContext& c, json&) {
  return om_text_or_null(c.facts.currency);
}
json om_campaign(BuildContext& c, json&) {
  return om_text_or_null(c.facts.campaign_id);
}
json om_connector(BuildContext& c, json&) {
  return om_text_or_null(c.facts.connector);
}
json om_connector_parameters(BuildContext& c, json&) {
  return c.facts.connector.empty() ? json() : om_parameters(c.facts.connector_parameters, c);
}
// Spec 2.7: the responses show Default when no subtype is set; every org has it.
json om_processing_type(BuildContext&, json&) {
  return "Default";
}

// Package name -> action name -> parameters (spec 2.8), one action of GET /PackageActions.
json om_package_actions(BuildContext& c, json&) {
  if (c.facts.package_actions.empty()) return nullptr;
  const ActionFact& a = c.rng.pick(c.facts.package_actions);
  return {{a.package, {{a.action, om_parameters(a.parameters, c)}}}};
}

// Payer.Account.RecordTypeName and Payer.AccountRecordTypeName must agree.
json om_account_record_type(BuildContext& c, json& body) {
  const json::json_pointer inner("/Payer/Account/RecordTypeName");
  if (body.contains(inner)) return body.at(inner);
  const auto& types = c.facts.account_record_types;
  return types.empty() ? json() : json(c.rng.pick(types));
}
json om_contact_record_type(BuildContext& c, json&) {
  const auto& types = c.facts.contact_record_types;
  return types.empty() ? json() : json(c.rng.pick(types));
}

// One or two of an object's text fields, each within its length (CrmFields).
json om_crm_fields(BuildContext& c, const std::string& object) {
  const auto it = c.facts.crm_fields.find(object);
  if (it == c.facts.crm_fields.end() || it->second.empty()) return nullptr;
  json out = json::object();
  for (size_t n = 1 + c.rng.below(2); n-- > 0;) {
    const FieldFact& f = c.rng.pick(it->second);
    out[f.name] = ("Explore " + f.name + " " + c.tag).substr(0, f.length);
  }
  return out;
}
json om_crm_installment(BuildContext& c, json&) {
  return om_crm_fields(c, kInstallmentObject);
}
json om_crm_recurring(BuildContext& c, json&) {
  return om_crm_fields(c, c.facts.recurring_object);
}
json om_crm_inbound_report(BuildContext& c, json&) {
  return om_crm_fields(c, kInboundReportObject);
}
json om_crm_payment_profile(BuildContext& c, json&) {
  return om_crm_fields(c, kPaymentProfileObject);
}

// ---- values the spec names --------------------------------------------------

// A new business account by its fields (spec 2.2); the older shape has them inline (4.7).
json om_new_account(BuildContext& c, json&) {
  return {{"CrmFields", {{"Name", "Explore Payer Account " + c.tag}}}};
}
json om_legacy_account(BuildContext& c, json&) {
  return {{"Name", "Explore Payer Account " + c.tag}};
}
// Fields sent with ContactId fill the contact's empty ones ("Enrich", spec 4.7).
json om_legacy_contact(BuildContext&, json&) {
  return {{"FirstName", "Explore"}};
}
json om_enrich(BuildContext&, json&) {
  return "Enrich";
}
json om_primary_relation(BuildContext&, json&) {
  return "Contact";
}
// The spec's RedirectURL is where a payer goes: a URL, as the other URLs.
json om_url(BuildContext& c, json&) {
  return "https://shop.example/return/" + c.tag;
}
json om_idempotency_key(BuildContext& c, json&) {
  return "explore-" + c.tag + "-" + std::to_string(c.rng.below(1000000));
}

// A year after the block's StartDate (spec 2.11: EndDate after StartDate).
json om_end_date(BuildContext&, json& body) {
  const json::json_pointer start("/Recurring/StartDate");
  if (!body.contains(start) || !body.at(start).is_string()) return nullptr;
  std::string d = body.at(start).get<std::string>();
  if (d.size() != 10) return nullptr;
  return std::to_string(std::stoi(d.substr(0, 4)) + 1) + d.substr(4);
}

// An upsert names its external id field; the upload's CSV then carries it.
json om_external_id(BuildContext& c, json& body) {
  if (c.facts.account_external_id.empty()) return nullptr;
  body["operation"] = "upsert";
  return c.facts.account_external_id;
}

// ---- the table --------------------------------------------------------------

// The four operations of POST /PaymentIntent the explorer makes (spec 4.1).
constexpr char kIntentNew[] = "createOneTime createRecurring createOneTimeKnownPayer";
constexpr char kIntentAll[] =
    "createOneTime createRecurring createOneTimeKnownPayer payInstallment updateRecurring";
constexpr char kLegacyNew[] = "createLegacyPayment createLegacyRecurring";
constexpr char kLegacyAll[] =
    "createLegacyPayment createLegacyRecurring createLegacyKnownPayer payLegacyInstallment";

void om_intent_rows(std::vector<OptionalMember>& t) {
  const std::vector<OptionalMember> rows = {
      {kIntentAll, "/WebhookURL", nullptr, ""},
      {kIntentAll, "/RedirectURL", om_url, ""},
      {kIntentAll, "/Origin", nullptr, ""},
      {kIntentAll, "/CampaignId", om_campaign, ""},
      {kIntentAll, "/IdempotencyKey", om_idempotency_key, ""},
      {kIntentAll, "/CrmFields", om_crm_inbound_report, ""},
      {kIntentAll, "/PackageActions", om_package_actions, ""},
      {kIntentAll, "/Settings/SourceConnector", om_connector, ""},
      {kIntentAll, "/Settings/ProcessingType", om_processing_type, ""},
      {kIntentAll, "/Settings/SourceConnectorParameters", om_connector_parameters, ""},
      {kIntentNew, "/Payer/AllowDeduplication", nullptr, ""},
      {"createOneTime createRecurring", "/Payer/Account", om_new_account, ""},
      {kIntentNew, "/Payer/Account/RecordTypeName", om_account_record_type, "/Payer/Account"},
      {kIntentNew, "/Payer/AccountRecordTypeName", om_account_record_type, "/Payer/Account"},
      {kIntentAll, "/PaymentMethod/Processor", om_processor, ""},
      {kIntentAll, "/PaymentMethod/Target", om_target, ""},
      {kIntentAll, "/PaymentMethod/Parameters", om_method_parameters, ""},
      {"createOneTime createRecurring createOneTimeKnownPayer updateRecurring",
       "/OneTime/CurrencyISOCode", om_currency, "/OneTime"},
      {"createOneTime createRecurring createOneTimeKnownPayer payInstallment updateRecurring",
       "/OneTime/CrmFields", om_crm_installment, "/OneTime"},
      {"createRecurring", "/Recurring/EndDate", om_end_date, ""},
      {"createRecurring", "/Recurring/CurrencyISOCode", om_currency, ""},
      {"createRecurring", "/Recurring/CrmFields", om_crm_recurring, ""},
  };
  t.insert(t.end(), rows.begin(), rows.end());
}

void om_legacy_rows(std::vector<OptionalMember>& t) {
  const std::vector<OptionalMember> rows = {
      {kLegacyAll, "/WebhookURL", nullptr, ""},
      {kLegacyAll, "/Origin", nullptr, ""},
      {kLegacyAll, "/SourceConnector/Name", om_connector, ""},
      {kLegacyAll, "/PackageActions", om_package_actions, ""},
      {kLegacyNew, "/Payer/AllowDeduplication", nullptr, ""},
      {kLegacyNew, "/Payer/PrimaryRelation", om_primary_relation, ""},
      {kLegacyNew, "/Payer/Account", om_legacy_account, ""},
      {kLegacyNew, "/Payer/AccountRecordTypeName", om_account_record_type, "/Payer/Account"},
      {kLegacyNew, "/Payer/ContactRecordTypeName", om_contact_record_type, ""},
      {"createLegacyKnownPayer", "/Payer/ContactUpdate", om_enrich, ""},
      {"createLegacyKnownPayer", "/Payer/Contact", om_legacy_contact, "/Payer/ContactUpdate"},
      {"createLegacyKnownPayer", "/Payer/AccountUpdate", om_enrich, ""},
      {"createLegacyKnownPayer", "/Payer/Account", om_legacy_account, "/Payer/AccountUpdate"},
      {kLegacyAll, "/PaymentMethod/Processor", om_processor, "/PaymentMethod"},
      {kLegacyAll, "/PaymentMethod/Target", om_target, "/PaymentMethod"},
      {kLegacyAll, "/PaymentMethod/ParameterMap", om_method_parameters, "/PaymentMethod"},
      {"createLegacyRecurring", "/PaymentMethod/PaymentProfile", om_crm_payment_profile,
       "/PaymentMethod"},
      {"createLegacyPayment createLegacyKnownPayer", "/Payment/CurrencyISOCode", om_currency, ""},
      {"createLegacyPayment createLegacyKnownPayer payLegacyInstallment", "/Payment/CustomFields",
       om_crm_installment, ""},
      {"createLegacyRecurring", "/Recurring/EndDate", om_end_date, ""},
      {"createLegacyRecurring", "/Recurring/CurrencyISOCode", om_currency, ""},
      {"createLegacyRecurring", "/Recurring/CustomFields", om_crm_recurring, ""},
  };
  t.insert(t.end(), rows.begin(), rows.end());
}

void om_bulk_rows(std::vector<OptionalMember>& t) {
  t.push_back({"createIngestJob", "/externalIdFieldName", om_external_id, ""});
}

bool om_applies(const OptionalMember& m, const std::string& op) {
  return (" " + m.ops + " ").find(" " + op + " ") != std::string::npos;
}

// The share of a body's rows it gets: none, some or all, drawn per body.
unsigned om_percent(BuildContext& c) {
  if (c.fill != Fill::kDrawn) return c.fill == Fill::kAll ? 100 : 0;
  static const std::vector<unsigned> shares = {0, 30, 60, 100};
  return c.rng.pick(shares);
}

}  // namespace

const std::vector<OptionalMember>& optional_members() {
  static const std::vector<OptionalMember> table = [] {
    std::vector<OptionalMember> t;
    om_intent_rows(t);
    om_legacy_rows(t);
    om_bulk_rows(t);
    return t;
  }();
  return table;
}

void add_optional_members(const std::string& op, const std::string& schema, json& body,
                          BuildContext& ctx) {
  ctx.added.clear();
  if (!body.is_object()) return;
  const unsigned percent = om_percent(ctx);
  for (const auto& m : optional_members()) {
    if (percent == 0 || !om_applies(m, op)) continue;
    if (percent < 100 && !ctx.rng.chance(percent)) continue;
    const json::json_pointer at(m.pointer);
    if (body.contains(at) || (!m.needs.empty() && !body.contains(json::json_pointer(m.needs))))
      continue;
    // Its parents are objects (or absent: made so), never another value.
    bool fits = true;
    for (json::json_pointer p = at.parent_pointer(); !p.empty(); p = p.parent_pointer())
      fits = fits && (!body.contains(p) || body.at(p).is_object());
    if (!fits) continue;
    json v = m.source ? m.source(ctx, body) : schema_value(schema, m.pointer, ctx.rng, ctx.tag);
    if (v.is_null()) continue;
    body[at] = std::move(v);
    ctx.added.push_back(m.pointer);
  }
}

const std::vector<UnsentProperty>& unsent_properties() {
  static const std::vector<UnsentProperty> table = {
      {"payment_request#/Payer/ContactRecordTypeName",
       "names a Contact record type, and the default org defines none (fixtures/default.yaml): "
       "any value is refused there; sent on a target whose facts list one"},
  };
  return table;
}

}  // namespace runner::explore
