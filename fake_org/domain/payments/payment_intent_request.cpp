#include "payment_intent_request.h"

#include <algorithm>

#include "util/ascii.h"
#include "util/url.h"

namespace fake_org {

const char* to_string(Operation op) {
  switch (op) {
    case Operation::kNewOneTime:
      return "New One-Time";
    case Operation::kNewRecurring:
      return "New Recurring";
    case Operation::kPayInstallment:
      return "Pay Installment";
    case Operation::kUpdateRecurring:
      return "Update Recurring";
  }
  return "New One-Time";
}

namespace {

// Collects every problem of one body, each naming its dotted path.
class Reader {
 public:
  ApiErrors errors;

  void missing(const std::string& path, const std::string& why) {
    errors.push_back(make_error(error_code::kMissingCoreParameter, path, why));
  }
  void invalid(const std::string& path, const std::string& why) {
    errors.push_back(make_error(error_code::kInvalidData, path, why));
  }

  // Unknown keys are refused so that a typo ("SucessURL") never passes silently.
  void only_keys(const nlohmann::json& obj, const std::string& path,
                 std::initializer_list<const char*> allowed) {
    for (const auto& item : obj.items()) {
      const std::string& k = item.key();  // a lambda cannot capture a structured binding
      // A dozen names at most: a scan costs less than building a set.
      if (std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return k == a; }))
        continue;
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      invalid(join(path, k), "Unknown field '" + join(path, k) + "'; " +
                                 (path.empty() ? "the body" : path) + " accepts: " + list);
    }
  }

  std::string str(const nlohmann::json& obj, const std::string& path, const char* key) {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return "";
    if (it->is_string()) return it->get<std::string>();
    // Spec 2.3-2.7 type these fields string: a number is refused, not coerced.
    invalid(join(path, key),
            join(path, key) + " must be a string, got " + kind(*it) + " " + it->dump());
    return "";
  }

  // An optional JSON object; a non-object is an error and reads as absent.
  const nlohmann::json* object(const nlohmann::json& obj, const std::string& path,
                               const char* key) {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return nullptr;
    if (!it->is_object()) {
      invalid(join(path, key), join(path, key) + " must be a JSON object, got " + kind(*it));
      return nullptr;
    }
    return &*it;
  }

  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }
  static std::string kind(const nlohmann::json& v) {
    if (v.is_array()) return "an array";
    if (v.is_object()) return "an object";
    if (v.is_string()) return "a string";
    if (v.is_boolean()) return "a boolean";
    if (v.is_number()) return "a number";
    return "null";
  }
};

bool given(const std::optional<nlohmann::json>& v) {
  return v && !v->is_null();
}

// The root fields and the blocks, each checked for its keys and types.
void read_root(Reader& r, const nlohmann::json& body, PaymentIntentRequest& q) {
  r.only_keys(body, "",
              {"SuccessURL", "FailureURL", "RedirectURL", "WebhookURL", "Origin", "CampaignId",
               "IdempotencyKey", "Payer", "OneTime", "Recurring", "PaymentMethod", "Settings",
               "CrmFields", "PackageActions"});
  q.success_url = r.str(body, "", "SuccessURL");
  q.failure_url = r.str(body, "", "FailureURL");
  q.redirect_url = r.str(body, "", "RedirectURL");
  q.webhook_url = r.str(body, "", "WebhookURL");
  q.origin = r.str(body, "", "Origin");
  q.campaign_id = r.str(body, "", "CampaignId");
  q.idempotency_key = r.str(body, "", "IdempotencyKey");

  if (const auto* p = r.object(body, "", "Payer")) q.payer = *p;
  if (const auto* c = r.object(body, "", "CrmFields")) q.crm_fields = *c;
  if (const auto* a = r.object(body, "", "PackageActions")) q.package_actions = *a;
}

void read_one_time(Reader& r, const nlohmann::json& o, PaymentIntentRequest& q) {
  r.only_keys(o, "OneTime", {"Amount", "CurrencyISOCode", "Id", "CrmFields"});
  OneTimeInput in;
  if (o.contains("Amount") && !o["Amount"].is_null()) in.amount = o["Amount"];
  in.currency = r.str(o, "OneTime", "CurrencyISOCode");
  in.id = r.str(o, "OneTime", "Id");
  if (const auto* c = r.object(o, "OneTime", "CrmFields")) in.crm_fields = *c;
  q.one_time = std::move(in);
}

void read_recurring(Reader& r, const nlohmann::json& o, PaymentIntentRequest& q) {
  r.only_keys(
      o, "Recurring",
      {"Amount", "CurrencyISOCode", "Frequency", "StartDate", "EndDate", "Id", "CrmFields"});
  RecurringInput in;
  if (o.contains("Amount") && !o["Amount"].is_null()) in.amount = o["Amount"];
  in.currency = r.str(o, "Recurring", "CurrencyISOCode");
  in.frequency = r.str(o, "Recurring", "Frequency");
  in.start_date = r.str(o, "Recurring", "StartDate");
  in.end_date = r.str(o, "Recurring", "EndDate");
  in.id = r.str(o, "Recurring", "Id");
  if (const auto* c = r.object(o, "Recurring", "CrmFields")) in.crm_fields = *c;
  q.recurring = std::move(in);
}

void read_payment_method(Reader& r, const nlohmann::json& o, PaymentIntentRequest& q) {
  r.only_keys(o, "PaymentMethod", {"Name", "Processor", "Target", "Parameters"});
  PaymentMethodInput in;
  in.name = r.str(o, "PaymentMethod", "Name");
  in.processor = r.str(o, "PaymentMethod", "Processor");
  in.target = r.str(o, "PaymentMethod", "Target");
  if (const auto* p = r.object(o, "PaymentMethod", "Parameters")) {
    in.parameters = *p;
    in.parameters_given = true;
  }
  q.payment_method = std::move(in);
}

void read_settings(Reader& r, const nlohmann::json& o, PaymentIntentRequest& q) {
  r.only_keys(o, "Settings", {"SourceConnector", "ProcessingType", "SourceConnectorParameters"});
  q.source_connector = r.str(o, "Settings", "SourceConnector");
  q.processing_type = r.str(o, "Settings", "ProcessingType");
  if (const auto* p = r.object(o, "Settings", "SourceConnectorParameters"))
    q.source_connector_parameters = *p;
}

void read_blocks(Reader& r, const nlohmann::json& body, PaymentIntentRequest& q) {
  if (const auto* o = r.object(body, "", "OneTime")) read_one_time(r, *o, q);
  if (const auto* o = r.object(body, "", "Recurring")) read_recurring(r, *o, q);
  if (const auto* o = r.object(body, "", "PaymentMethod")) read_payment_method(r, *o, q);
  if (const auto* o = r.object(body, "", "Settings")) read_settings(r, *o, q);
}

// The blocks present besides Recurring.Id, checked for an update.
void check_update_recurring(Reader& r, const PaymentIntentRequest& q, bool recurring_new,
                            bool one_time_id) {
  if (recurring_new)
    r.missing(
        "Recurring.Id",
        "Recurring.Id updates an existing recurring payment's method; it cannot be combined with "
        "Recurring.Amount, Frequency or StartDate (send those without Id to create a new one)");
  if (one_time_id)
    r.missing("OneTime.Id",
              "OneTime.Id (pay an existing installment) cannot be combined with Recurring.Id "
              "(update a recurring payment); send one operation per request");
  if (q.payer)
    r.missing("Payer",
              "Payer must be omitted when updating a recurring payment: the contact and "
              "account come from the existing record (spec 2.2 rule 4)");
  if (!q.payment_method)
    r.missing("PaymentMethod",
              "An update of a recurring payment needs PaymentMethod with the full details of "
              "method and processor (spec 4.1)");
  else if (q.payment_method->processor.empty())
    r.missing("PaymentMethod.Processor",
              "An update of a recurring payment must name PaymentMethod.Processor (spec 4.1: "
              "full details of "
              "method and processor)");
}

// The blocks present besides OneTime.Id, checked for paying an installment.
void check_pay_installment(Reader& r, const PaymentIntentRequest& q, bool one_time_amount) {
  if (q.recurring)
    r.missing("Recurring",
              "OneTime.Id pays an existing installment; a Recurring block cannot be combined "
              "with it");
  if (one_time_amount)
    r.missing("OneTime.Amount",
              "OneTime.Id pays the open amount of an existing installment; OneTime.Amount "
              "cannot be combined with it (spec 2.4: the block needs only Id)");
  if (q.payer)
    r.missing("Payer",
              "Payer must be omitted when paying an existing installment: the contact and "
              "account come from the installment (spec 2.2 rule 4)");
}

void check_new_recurring(Reader& r, const RecurringInput& in) {
  if (!given(in.amount))
    r.missing("Recurring.Amount", "A new recurring payment needs Recurring.Amount");
  if (in.frequency.empty())
    r.missing("Recurring.Frequency", "A new recurring payment needs Recurring.Frequency");
  if (in.start_date.empty())
    r.missing("Recurring.StartDate",
              "A new recurring payment needs Recurring.StartDate (YYYY-MM-DD)");
}

// Which of the four operations (spec 4.1), and whether its blocks fit it.
void decide_operation(Reader& r, PaymentIntentRequest& q) {
  const bool one_time_id = q.one_time && !q.one_time->id.empty();
  const bool one_time_amount = q.one_time && given(q.one_time->amount);
  const bool recurring_id = q.recurring && !q.recurring->id.empty();
  const bool recurring_new =
      q.recurring && (given(q.recurring->amount) || !q.recurring->frequency.empty() ||
                      !q.recurring->start_date.empty());
  if (recurring_id) {
    q.operation = Operation::kUpdateRecurring;
    check_update_recurring(r, q, recurring_new, one_time_id);
  } else if (one_time_id) {
    q.operation = Operation::kPayInstallment;
    check_pay_installment(r, q, one_time_amount);
  } else if (recurring_new || q.recurring) {
    q.operation = Operation::kNewRecurring;
    check_new_recurring(r, *q.recurring);
  } else if (one_time_amount) {
    q.operation = Operation::kNewOneTime;
  } else if (q.one_time) {
    r.missing("OneTime",
              "OneTime needs Amount (a new one-time payment) or Id (pay an existing installment)");
  } else {
    r.missing(
        "",
        "The request matches no operation: send OneTime.Amount (new one-time payment), Recurring "
        "with "
        "Amount, Frequency and StartDate (new recurring payment), OneTime.Id (pay an existing "
        "installment) or Recurring.Id with PaymentMethod (update a recurring payment)");
  }
}

// Payer and PaymentMethod of a new payment, PaymentMethod.Name when given.
void check_payer_and_method(Reader& r, const PaymentIntentRequest& q) {
  const bool is_new =
      q.operation == Operation::kNewOneTime || q.operation == Operation::kNewRecurring;
  if (is_new && r.errors.empty()) {
    if (!q.payer)
      r.missing("Payer", "A new payment needs a Payer with a Contact or an Account (spec 2.2)");
    if (!q.payment_method)
      r.missing("PaymentMethod", "A new payment needs PaymentMethod with at least Name");
  }
  if (q.payment_method && q.payment_method->name.empty() &&
      q.operation != Operation::kPayInstallment)
    r.missing("PaymentMethod.Name",
              "PaymentMethod.Name is required; GET /PaymentMethods lists the methods of "
              "this org");
}

void check_urls(Reader& r, const PaymentIntentRequest& q) {
  if (q.success_url.empty())
    r.missing("SuccessURL", "SuccessURL is required (where the payer goes after success)");
  else if (!is_absolute_http_url(q.success_url))
    r.invalid("SuccessURL", "SuccessURL '" + q.success_url + "' is not an absolute http(s) URL");
  if (q.failure_url.empty())
    r.missing("FailureURL",
              "FailureURL is required (where the payer goes after failure or cancellation)");
  else if (!is_absolute_http_url(q.failure_url))
    r.invalid("FailureURL", "FailureURL '" + q.failure_url + "' is not an absolute http(s) URL");
  if (!q.webhook_url.empty() && !is_absolute_http_url(q.webhook_url))
    r.invalid("WebhookURL", "WebhookURL '" + q.webhook_url + "' is not an absolute http(s) URL");
  else if (has_dot_segment(q.webhook_url))
    r.invalid("WebhookURL", "WebhookURL '" + q.webhook_url +
                                "' has a '.' or '..' path segment; send the path it stands for");
}

}  // namespace

Result<PaymentIntentRequest> parse_payment_intent_request(nlohmann::json body) {
  Reader r;
  PaymentIntentRequest q;
  if (!body.is_object())
    return make_error(
        error_code::kMissingCoreParameter, "",
        "The request body must be a JSON object with SuccessURL, FailureURL and the blocks of "
        "one operation (spec 4.1); got " +
            Reader::kind(body));
  read_root(r, body, q);
  read_blocks(r, body, q);
  decide_operation(r, q);
  check_payer_and_method(r, q);
  check_urls(r, q);
  q.raw = std::move(body);
  // Missing core parameters first: they are what a client must fix before anything else.
  std::stable_sort(r.errors.begin(), r.errors.end(),
                   [](const ApiError& a, const ApiError& b) { return a.code < b.code; });
  if (!r.errors.empty()) return r.errors;
  return q;
}

}  // namespace fake_org
