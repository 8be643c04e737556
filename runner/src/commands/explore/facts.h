#pragma once
// What the explorer needs to know about a target that the schemas cannot
// say: its payment methods and processors (GET /PaymentMethods), the data
// API version it serves. Fetched once through the runner's own session.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "targets/target.h"

namespace runner::explore {

// A parameter a processor, a source connector or a package action takes
// (GET /PaymentMethods, /SourceConnector, /PackageActions).
struct ParameterFact {
  std::string name;
  std::string type;  // DataType: String, Number, Boolean, Date, Email, Picklist
  bool required = false;
  std::vector<std::string> values;  // a Picklist's
};

struct MethodFact {
  std::string name;
  std::string processor;                       // the default (or first) processor
  bool recurring = false;                      // the processor supports recurring payments
  bool initial_required = false;               // InitialPaymentonRecurring: Required
  std::vector<std::string> targets = {};       // the processor's
  std::vector<ParameterFact> parameters = {};  // the processor's optional ones
};

struct ActionFact {
  std::string package, action;
  std::vector<ParameterFact> parameters;
};

// A text field of the catalogue a create may fill (describe: string or
// textarea, createable and updateable).
struct FieldFact {
  std::string name;
  size_t length = 0;
};

struct TargetFacts {
  // Methods a request can name without parameters of its own (bank
  // methods need an IBAN or an account number, a processor may require a
  // package action: left out).
  std::vector<MethodFact> methods;
  std::string api_version = "59.0";
  // The default source connector's frequencies (GET /SourceConnector).
  std::vector<std::string> frequencies = {"Monthly"};
  // Account's text fields besides Name (GET .../sobjects/Account/describe).
  std::vector<FieldFact> account_fields;
  // Account's first external id text field (upserts by it); "" : none.
  std::string account_external_id;
  // The default source connector (GET /SourceConnector): its name, its
  // parameters, the object its recurring payments are.
  std::string connector;
  std::vector<ParameterFact> connector_parameters;
  std::string recurring_object = "cpm__Recurring_Payment__c";
  std::vector<ActionFact> package_actions;  // GET /PackageActions
  // From the data API: the org's default currency (Organization), an
  // active campaign's id, the record types of Account (business ones, not
  // person accounts) and of Contact.
  std::string currency;
  std::string campaign_id;
  std::vector<std::string> account_record_types, contact_record_types;
  // Per object, the text fields a request's CrmFields may fill (describe).
  std::map<std::string, std::vector<FieldFact>> crm_fields;
};

// A text that differs when the facts do: the sweep's cache key.
std::string facts_key(const TargetFacts& facts);

// The payment package's objects a request's CrmFields fill (spec 2.1): the
// installment (OneTime), the inbound report (the root's), the payment
// profile (the older /Payment's PaymentMethod.PaymentProfile). The
// recurring object is the connector's (TargetFacts::recurring_object).
constexpr char kInstallmentObject[] = "cpm__Installment__c";
constexpr char kInboundReportObject[] = "cpm__Inbound_Report__c";
constexpr char kPaymentProfileObject[] = "cpm__Payment_Profile__c";

// The parameters of a GET /PaymentMethods, /SourceConnector or
// /PackageActions list, in either layout (Name or name, DataType or dataType).
std::vector<ParameterFact> parameter_facts(const nlohmann::json& list);

// From a GET /PaymentMethods answer; methods with required parameters are
// left out. Pure, for tests.
TargetFacts facts_from_payment_methods(const nlohmann::json& body, TargetFacts base = {});
// From a GET /SourceConnector answer: the default connector's frequencies.
TargetFacts facts_from_source_connectors(const nlohmann::json& body, TargetFacts base);

// From a GET .../sobjects/Account/describe answer. Pure, for tests.
TargetFacts facts_from_describe(const nlohmann::json& body, TargetFacts base);

// From a GET /PackageActions answer, the spec's layout (Packages) or the
// package's (PackageActions). Pure, for tests.
TargetFacts facts_from_package_actions(const nlohmann::json& body, TargetFacts base);

// The text fields of an object's describe a create may fill (string or
// textarea, createable, updateable, not calculated). Pure, for tests.
std::vector<FieldFact> text_fields_from_describe(const nlohmann::json& body);

// From query answers: SELECT DefaultCurrencyIsoCode FROM Organization, SELECT
// Id FROM Campaign, SELECT DeveloperName, SobjectType, IsPersonType FROM
// RecordType. Pure, for tests.
TargetFacts facts_from_queries(const nlohmann::json& organization, const nlohmann::json& campaigns,
                               const nlohmann::json& record_types, TargetFacts base);

// Asks the data API and the configuration reads what the bodies' optional
// members need (the package actions, the currency, a campaign, the record
// types, the CrmFields catalogue), through an open session.
void fetch_catalogue_facts(OrgSession& org, TargetFacts& facts);

// Opens a session on the target and asks. Errors (the target cannot be
// reached, no usable payment method) come back in `error`.
TargetFacts fetch_facts(Target& target, const std::string& fixture, std::string& error);

}  // namespace runner::explore
