#pragma once
// Bodies of POST /PaymentIntent, built the way the tests describe them: one
// of the four operations (a new one-time payment, a new series, paying an
// existing installment, updating a series), then what the test varies.
// Unless told otherwise a new payment is Ada Lovelace's, by card, with shop
// URLs; bodies that are malformed on purpose stay literal in their tests.
#include <nlohmann/json.hpp>
#include <string>

namespace fake_org::testing {

inline constexpr const char* kIban = "DE89370400440532013000";  // a valid German IBAN

// PaymentMethod objects.
inline nlohmann::json payment_method(const std::string& name, const std::string& processor = "") {
  nlohmann::json m = {{"Name", name}};
  if (!processor.empty()) m["Processor"] = processor;
  return m;
}
inline nlohmann::json card(const std::string& processor = "") {
  return payment_method("CreditCard", processor);
}
inline nlohmann::json sepa_debit(const std::string& iban = kIban,
                                 const std::string& holder = "Ada Lovelace") {
  return {{"Name", "SEPA Direct Debit"},
          {"Parameters", {{"IBAN", iban}, {"AccountHolderName", holder}}}};
}
inline nlohmann::json bacs_debit(const std::string& holder = "Ada Lovelace",
                                 const std::string& sort_code = "60-16-13",
                                 const std::string& account_number = "31926819") {
  return {{"Name", "Bacs Direct Debit"},
          {"Parameters",
           {{"SortCode", sort_code},
            {"AccountNumber", account_number},
            {"AccountHolderName", holder}}}};
}
inline nlohmann::json ach_debit(const std::string& holder = "Ada Lovelace",
                                const std::string& routing_number = "011000015",
                                const std::string& account_number = "000123456789") {
  return {{"Name", "ACH"},
          {"Parameters",
           {{"RoutingNumber", routing_number},
            {"AccountNumber", account_number},
            {"AccountHolderName", holder}}}};
}

// A method with its processor named, as an update must (spec 4.1).
inline nlohmann::json with_processor(nlohmann::json method, const std::string& processor) {
  method["Processor"] = processor;
  return method;
}

// Payer objects.
inline nlohmann::json contact_payer(const nlohmann::json& crm_fields) {
  return {{"Contact", {{"CrmFields", crm_fields}}}};
}
inline nlohmann::json ada() {
  return contact_payer(
      {{"FirstName", "Ada"}, {"LastName", "Lovelace"}, {"Email", "ada@example.org"}});
}

class IntentBody {
 public:
  // A new one-time payment of 25 by Ada Lovelace.
  static IntentBody one_time(nlohmann::json method = card()) {
    IntentBody b;
    b.body_["Payer"] = ada();
    b.body_["OneTime"] = {{"Amount", 25}};
    b.body_["PaymentMethod"] = std::move(method);
    return b;
  }
  // A new monthly series of 10 from 2027-02-01 by Ada Lovelace, without an
  // initial payment.
  static IntentBody recurring(nlohmann::json method = card()) {
    IntentBody b;
    b.body_["Payer"] = ada();
    b.body_["Recurring"] = {{"Amount", 10}, {"Frequency", "Monthly"}, {"StartDate", "2027-02-01"}};
    b.body_["PaymentMethod"] = std::move(method);
    return b;
  }
  // Pays the open amount of an existing installment (its id or GUID); the
  // installment's own method unless one is given.
  static IntentBody pay_installment(const std::string& installment,
                                    nlohmann::json method = nullptr) {
    IntentBody b;
    b.body_["OneTime"] = {{"Id", installment}};
    if (!method.is_null()) b.body_["PaymentMethod"] = std::move(method);
    return b;
  }
  // Changes the payment method of an existing series (its id or GUID).
  static IntentBody update_recurring(const std::string& series, nlohmann::json method) {
    IntentBody b;
    b.body_["Recurring"] = {{"Id", series}};
    b.body_["PaymentMethod"] = std::move(method);
    return b;
  }

  // The payer.
  IntentBody& payer(nlohmann::json payer) { return set("Payer", std::move(payer)); }
  IntentBody& contact(nlohmann::json crm_fields) {
    body_["Payer"]["Contact"] = {{"CrmFields", std::move(crm_fields)}};
    return *this;
  }
  IntentBody& contact_id(const std::string& id) {
    body_["Payer"]["Contact"] = {{"Id", id}};
    return *this;
  }
  // An account beside the payer's contact.
  IntentBody& account(nlohmann::json crm_fields) {
    body_["Payer"]["Account"] = {{"CrmFields", std::move(crm_fields)}};
    return *this;
  }
  // A person account is the payer on its own: no contact is sent.
  IntentBody& person_account(nlohmann::json crm_fields) {
    return payer(
        {{"Account", {{"RecordTypeName", "PersonAccount"}, {"CrmFields", std::move(crm_fields)}}}});
  }
  IntentBody& allow_deduplication(bool allow = true) {
    body_["Payer"]["AllowDeduplication"] = allow;
    return *this;
  }

  // The payment method.
  IntentBody& method(nlohmann::json method) { return set("PaymentMethod", std::move(method)); }
  IntentBody& processor(const std::string& name) {
    body_["PaymentMethod"]["Processor"] = name;
    return *this;
  }
  IntentBody& target(const std::string& name) {
    body_["PaymentMethod"]["Target"] = name;
    return *this;
  }
  IntentBody& parameters(nlohmann::json parameters) {
    body_["PaymentMethod"]["Parameters"] = std::move(parameters);
    return *this;
  }
  IntentBody& parameter(const std::string& key, nlohmann::json value) {
    body_["PaymentMethod"]["Parameters"][key] = std::move(value);
    return *this;
  }

  // OneTime: the payment, or a series' initial payment.
  IntentBody& amount(nlohmann::json amount) {
    body_["OneTime"]["Amount"] = std::move(amount);
    return *this;
  }
  IntentBody& initial_payment(nlohmann::json amount) { return this->amount(std::move(amount)); }
  IntentBody& currency(const std::string& iso_code) {
    body_["OneTime"]["CurrencyISOCode"] = iso_code;
    return *this;
  }
  IntentBody& one_time_fields(nlohmann::json crm_fields) {
    body_["OneTime"]["CrmFields"] = std::move(crm_fields);
    return *this;
  }

  // Recurring: the series.
  IntentBody& series(nlohmann::json amount, const std::string& frequency,
                     const std::string& start_date, const std::string& end_date = "") {
    body_["Recurring"] = {
        {"Amount", std::move(amount)}, {"Frequency", frequency}, {"StartDate", start_date}};
    if (!end_date.empty()) body_["Recurring"]["EndDate"] = end_date;
    return *this;
  }
  IntentBody& series_currency(const std::string& iso_code) {
    body_["Recurring"]["CurrencyISOCode"] = iso_code;
    return *this;
  }
  IntentBody& frequency(const std::string& frequency) {
    body_["Recurring"]["Frequency"] = frequency;
    return *this;
  }
  IntentBody& start_date(const std::string& date) {
    body_["Recurring"]["StartDate"] = date;
    return *this;
  }
  IntentBody& end_date(const std::string& date) {
    body_["Recurring"]["EndDate"] = date;
    return *this;
  }
  IntentBody& recurring_fields(nlohmann::json crm_fields) {
    body_["Recurring"]["CrmFields"] = std::move(crm_fields);
    return *this;
  }

  // The request as a whole.
  IntentBody& urls(const std::string& success, const std::string& failure) {
    set("SuccessURL", success);
    return set("FailureURL", failure);
  }
  IntentBody& webhook(const std::string& url) { return set("WebhookURL", url); }
  IntentBody& origin(const std::string& origin) { return set("Origin", origin); }
  IntentBody& campaign(const std::string& id) { return set("CampaignId", id); }
  IntentBody& idempotency_key(const std::string& key) { return set("IdempotencyKey", key); }
  // Root CrmFields: the inbound report's.
  IntentBody& crm_fields(nlohmann::json crm_fields) {
    return set("CrmFields", std::move(crm_fields));
  }
  IntentBody& processing_type(const std::string& name) {
    body_["Settings"]["ProcessingType"] = name;
    return *this;
  }
  IntentBody& source_connector(const std::string& name) {
    body_["Settings"]["SourceConnector"] = name;
    return *this;
  }
  IntentBody& connector_parameters(nlohmann::json parameters) {
    body_["Settings"]["SourceConnectorParameters"] = std::move(parameters);
    return *this;
  }
  IntentBody& package_actions(nlohmann::json actions) {
    return set("PackageActions", std::move(actions));
  }
  // Any root key, as given.
  IntentBody& set(const std::string& key, nlohmann::json value) {
    body_[key] = std::move(value);
    return *this;
  }
  IntentBody& without(const std::string& key) {
    body_.erase(key);
    return *this;
  }

  const nlohmann::json& body() const { return body_; }

 private:
  IntentBody()
      : body_({{"SuccessURL", "https://shop.example/thanks"},
               {"FailureURL", "https://shop.example/sorry"}}) {}
  nlohmann::json body_;
};

// So an IntentBody goes wherever a json does: t.post(path, body), json b = body.
inline void to_json(nlohmann::json& j, const IntentBody& b) {
  j = b.body();
}

// A new one-time card payment (a hosted page) for Ada Lovelace whose
// FailureURL has a query of its own, so tests see the payment intent id
// appended to it.
inline IntentBody hosted_card_intent(const std::string& webhook = "") {
  IntentBody b = IntentBody::one_time().urls("https://shop.example/thanks",
                                             "https://shop.example/sorry?step=2");
  if (!webhook.empty()) b.webhook(webhook);
  return b;
}

}  // namespace fake_org::testing
