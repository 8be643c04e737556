// The older POST /Payment body (spec 4.7) translated into the request of
// POST /PaymentIntent (spec 4.1). Only the shape differs; every rule that
// needs the org (amounts, methods, payers, CrmFields) is the shared
// operations' and is not repeated here.
#include <array>
#include <cctype>
#include <utility>

#include "domain/config/crm_fields.h"
#include "legacy_payment.h"
#include "payment_method_resolution.h"

namespace fake_org {

namespace {

using nlohmann::json;

// Collects the problems of the legacy shape, each naming its legacy path.
class Checker {
 public:
  ApiErrors errors;

  void invalid(const std::string& path, std::string why) {
    errors.push_back(make_error(error_code::kInvalidData, path, std::move(why)));
  }
  void missing(const std::string& path, std::string why) {
    errors.push_back(make_error(error_code::kMissingCoreParameter, path, std::move(why)));
  }

  // Unknown keys are refused: a typo must not silently change what is created.
  void only_keys(const json& obj, const std::string& path,
                 std::initializer_list<const char*> allowed) {
    std::string list;
    for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    for (const auto& [k, v] : obj.items()) {
      bool known = false;
      for (const char* a : allowed) known = known || k == a;
      if (!known)
        invalid(join(path, k), "Unknown field '" + join(path, k) + "'; " +
                                   (path.empty() ? "the /Payment body" : path) +
                                   " accepts: " + list + " (spec 4.7)");
    }
  }

  // An optional object member; anything else is an error and reads as absent.
  const json* object(const json& obj, const std::string& path, const char* key) {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return nullptr;
    if (!it->is_object()) {
      invalid(join(path, key), join(path, key) + " must be a JSON object, got " + it->type_name());
      return nullptr;
    }
    return &*it;
  }

  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }
};

const json* member(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

// Copies obj[from] to out[to] when present (types are the shared parser's concern).
void copy(const json& obj, const char* from, json& out, const char* to) {
  if (const json* v = member(obj, from)) out[to] = *v;
}

// ContactUpdate / AccountUpdate: "Enrich" is the only mode (spec 4.7).
bool update_mode(Checker& c, const json& payer, const char* key) {
  const json* v = member(payer, key);
  if (!v) return false;
  std::string path = std::string("Payer.") + key;
  if (!v->is_string() || v->get<std::string>() != "Enrich") {
    c.invalid(path, path + " " + v->dump() +
                        " is not a mode of this org; the only mode is \"Enrich\" (fields sent "
                        "with the id fill the record's empty fields, never overwrite them)");
    return false;
  }
  return true;
}

// One of Contact / Account of the older Payer as the v2 block.
json payer_block(Checker& c, const json& payer, const char* name, bool enrich, bool* id_given,
                 bool* fields_given) {
  const std::string p = std::string("Payer.") + name;
  json block = json::object();
  copy(payer, (std::string(name) + "Id").c_str(), block, "Id");
  copy(payer, (std::string(name) + "RecordTypeName").c_str(), block, "RecordTypeName");
  if (const json* fields = c.object(payer, "Payer", name)) {
    block["CrmFields"] = *fields;
    *fields_given = !fields->empty();
  }
  *id_given = block.contains("Id");
  if (*id_given && *fields_given && !enrich)
    c.invalid(p, p + " fields sent with " + p + "Id change the existing record only with " + p +
                     "Update \"Enrich\" (fills its empty fields); add it or leave the fields out");
  return block;
}

void translate_payer(Checker& c, const json& payer, LegacyPaymentRequest& out, json& v2) {
  c.only_keys(
      payer, "Payer",
      {"Contact", "ContactId", "ContactRecordTypeName", "ContactUpdate", "Account", "AccountId",
       "AccountRecordTypeName", "AccountUpdate", "AllowDeduplication", "PrimaryRelation"});
  if (const json* rel = member(payer, "PrimaryRelation"))
    if (!rel->is_string() || rel->get<std::string>() != "Contact")
      c.invalid("Payer.PrimaryRelation",
                "Payer.PrimaryRelation " + rel->dump() +
                    " is not supported; the only relation is \"Contact\" (the contact is the "
                    "payer, linked to the account)");
  const bool enrich_contact = update_mode(c, payer, "ContactUpdate");
  const bool enrich_account = update_mode(c, payer, "AccountUpdate");
  bool contact_fields = false;
  json contact =
      payer_block(c, payer, "Contact", enrich_contact, &out.contact_id_given, &contact_fields);
  json account = payer_block(c, payer, "Account", enrich_account, &out.account_id_given,
                             &out.account_fields_given);
  // The Account's record type sits beside the Account in both shapes.
  if (account.contains("RecordTypeName")) {
    v2["AccountRecordTypeName"] = account["RecordTypeName"];
    account.erase("RecordTypeName");
  }
  if (!contact.empty()) v2["Contact"] = contact;
  if (!account.empty()) v2["Account"] = account;
  copy(payer, "AllowDeduplication", v2, "AllowDeduplication");
  if (const json* d = member(payer, "AllowDeduplication"))
    out.allow_deduplication = d->is_boolean() && d->get<bool>();
}

// With a processor whose InitialPaymentonRecurring is Required, the first
// collection is the initial payment: the older body has no other amount.
void add_initial_payment(const OrgConfig& config, const PaymentIntentRequest& shape, json& v2) {
  if (!v2.contains("PaymentMethod") || !v2.contains("Recurring")) return;
  PaymentMethodInput in;
  const json& m = v2["PaymentMethod"];
  in.name = m.value("Name", "");
  in.processor = m.value("Processor", "");
  in.target = m.value("Target", "");
  auto method = resolve_payment_method(config, in);
  // An unknown method is reported by the shared operation.
  if (!method.ok() || method->processor->initial_payment_on_recurring != InitialPayment::kRequired)
    return;
  json one_time = {{"Amount", v2["Recurring"]["Amount"]}};
  if (shape.recurring && !shape.recurring->currency.empty())
    one_time["CurrencyISOCode"] = shape.recurring->currency;
  v2["OneTime"] = one_time;
}

// Payment becomes OneTime, Recurring stays Recurring; exactly one of them.
void translate_amounts(Checker& c, const json* payment, const json* recurring, json& v2) {
  if (payment && recurring)
    c.missing("Recurring",
              "Send Payment or Recurring, not both: Recurring replaces Payment for a recurring "
              "payment (spec 4.7)");
  else if (!payment && !recurring && c.errors.empty())
    c.missing("Payment",
              "The request needs Payment (Amount for a new one-time payment, or InstallmentId to "
              "pay an existing installment) or Recurring (Amount, Frequency, StartDate)");
  if (payment) {
    c.only_keys(*payment, "Payment",
                {"Amount", "CurrencyISOCode", "CustomFields", "InstallmentId"});
    json o = json::object();
    copy(*payment, "Amount", o, "Amount");
    copy(*payment, "CurrencyISOCode", o, "CurrencyISOCode");
    copy(*payment, "CustomFields", o, "CrmFields");
    copy(*payment, "InstallmentId", o, "Id");
    v2["OneTime"] = o;
  }
  if (recurring) {
    // No Id: the older interface creates recurring payments but does not update them.
    c.only_keys(*recurring, "Recurring",
                {"Amount", "CurrencyISOCode", "Frequency", "StartDate", "EndDate", "CustomFields"});
    json r = json::object();
    for (const char* k : {"Amount", "CurrencyISOCode", "Frequency", "StartDate", "EndDate"})
      copy(*recurring, k, r, k);
    copy(*recurring, "CustomFields", r, "CrmFields");
    v2["Recurring"] = r;
  }
}

// A PaymentProfile's fields, checked here: the v2 request has no place for them.
void check_payment_profile(Checker& c, const json& profile, bool recurring, const OrgConfig& config,
                           LegacyPaymentRequest& out) {
  const std::string path = "PaymentMethod.PaymentProfile";
  if (!recurring) {
    c.invalid(path, path +
                        " applies to recurring payments: a one-time payment's payment profile "
                        "is created from the PSP's data when it is collected (spec 2.12)");
  } else if (const ObjectDef* def = config.object(objects::kPaymentProfile)) {
    auto check = check_crm_fields(profile, *def, path, &config);
    c.errors.insert(c.errors.end(), check.errors.begin(), check.errors.end());
    out.payment_profile = check.values;
  }
}

void translate_method(Checker& c, const json& method, bool recurring, const OrgConfig& config,
                      LegacyPaymentRequest& out, json& v2) {
  c.only_keys(method, "PaymentMethod",
              {"Name", "Processor", "Target", "ParameterMap", "PaymentProfile"});
  json m = json::object();
  for (const char* k : {"Name", "Processor", "Target"}) copy(method, k, m, k);
  copy(method, "ParameterMap", m, "Parameters");
  v2["PaymentMethod"] = m;
  if (const json* profile = c.object(method, "PaymentMethod", "PaymentProfile"))
    check_payment_profile(c, *profile, recurring, config, out);
}

void translate_connector(Checker& c, const json& conn, json& v2) {
  c.only_keys(conn, "SourceConnector", {"Name"});
  if (const json* name = member(conn, "Name"))
    v2["Settings"] = {{"SourceConnector", *name}};
  else
    c.missing("SourceConnector.Name",
              "SourceConnector needs Name (GET /SourceConnector lists them), or leave the block "
              "out for the org's default");
}

// The shared parser checks everything else (types, URLs, which operation);
// its messages are renamed back to the legacy paths.
Result<LegacyPaymentRequest> parse_as_intent(json v2, const OrgConfig& config,
                                             LegacyPaymentRequest out) {
  auto shape = parse_payment_intent_request(v2);
  if (shape.ok()) {
    add_initial_payment(config, *shape, v2);
    shape = parse_payment_intent_request(v2);
  }
  if (!shape.ok()) return to_legacy_errors(shape.errors());
  out.intent = std::move(*shape);
  out.intent.interface_name = "Payment";
  return out;
}

}  // namespace

Result<LegacyPaymentRequest> translate_legacy_request(const json& body, const OrgConfig& config) {
  if (!body.is_object())
    return make_error(error_code::kMissingCoreParameter, "",
                      "The /Payment body must be a JSON object with SuccessURL, FailureURL, "
                      "Payer and Payment or Recurring (spec 4.7); got " +
                          std::string(body.type_name()));
  Checker c;
  LegacyPaymentRequest out;
  json v2 = json::object();
  c.only_keys(body, "",
              {"SuccessURL", "FailureURL", "WebhookURL", "Origin", "Payer", "Payment", "Recurring",
               "PaymentMethod", "SourceConnector", "PackageActions"});
  for (const char* k : {"SuccessURL", "FailureURL", "WebhookURL", "Origin", "PackageActions"})
    copy(body, k, v2, k);
  if (const json* payer = c.object(body, "", "Payer")) {
    json p = json::object();
    translate_payer(c, *payer, out, p);
    v2["Payer"] = p;
  }
  const json* payment = c.object(body, "", "Payment");
  const json* recurring = c.object(body, "", "Recurring");
  translate_amounts(c, payment, recurring, v2);
  if (const json* method = c.object(body, "", "PaymentMethod"))
    translate_method(c, *method, recurring != nullptr, config, out, v2);
  if (const json* conn = c.object(body, "", "SourceConnector")) translate_connector(c, *conn, v2);
  if (!c.errors.empty()) return c.errors;
  return parse_as_intent(std::move(v2), config, std::move(out));
}

std::string to_legacy_path(std::string_view text) {
  // Longest names first, so "Payer.Contact.Id" wins over "Payer.Contact".
  static const std::array<std::pair<std::string_view, std::string_view>, 11> kRenames = {{
      {"Payer.Contact.RecordTypeName", "Payer.ContactRecordTypeName"},
      {"Payer.Account.RecordTypeName", "Payer.AccountRecordTypeName"},
      {"PaymentMethod.Parameters", "PaymentMethod.ParameterMap"},
      {"Settings.SourceConnector", "SourceConnector.Name"},
      {"Payer.Contact.CrmFields", "Payer.Contact"},
      {"Payer.Account.CrmFields", "Payer.Account"},
      {"Recurring.CrmFields", "Recurring.CustomFields"},
      {"OneTime.CrmFields", "Payment.CustomFields"},
      {"Payer.Contact.Id", "Payer.ContactId"},
      {"Payer.Account.Id", "Payer.AccountId"},
      {"OneTime.Id", "Payment.InstallmentId"},
  }};
  auto word_char = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
  };
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    bool at_word_start = i == 0 || !word_char(text[i - 1]);
    bool done = false;
    if (at_word_start) {
      for (const auto& [from, to] : kRenames) {
        if (text.compare(i, from.size(), from) == 0 &&
            (i + from.size() == text.size() || !word_char(text[i + from.size()]))) {
          out += to;
          i += from.size();
          done = true;
          break;
        }
      }
      // "OneTime" alone or as a prefix of a path ("OneTime.Amount").
      if (!done && text.compare(i, 7, "OneTime") == 0 &&
          (i + 7 == text.size() || !word_char(text[i + 7]))) {
        out += "Payment";
        i += 7;
        done = true;
      }
    }
    if (!done) out += text[i++];
  }
  return out;
}

ApiErrors to_legacy_errors(ApiErrors errors) {
  for (auto& e : errors) {
    e.field = to_legacy_path(e.field);
    e.message = to_legacy_path(e.message);
  }
  return errors;
}

}  // namespace fake_org
