#pragma once
// For the explorer's tests: the facts fetch_facts() reads from the default
// org (fixtures/default.yaml), written out, so a test makes the default
// run's cases without an org.
#include "commands/explore/facts.h"

namespace runner::explore {

inline TargetFacts default_org_facts() {
  TargetFacts f;
  f.api_version = "68.0";
  MethodFact card{"CreditCard", "Stripe", true, true};
  card.targets = {"Online", "Telephone"};
  card.parameters = {{"description", "String", false, {}}};
  MethodFact paypal{"PayPal", "PayPal", false, false};
  paypal.targets = {"Checkout"};
  f.methods = {card, paypal};
  f.frequencies = {"Daily", "Weekly", "Monthly", "Yearly"};
  f.account_fields = {{"Description", 32000}, {"VAT_Number__c", 20}};
  f.account_external_id = "Legacy_Account_Id__c";
  f.connector = "cpm_Native";
  f.recurring_object = "cpm__Recurring_Payment__c";
  f.package_actions = {
      {"cpm_GiftAid",
       "Declaration",
       {{"DeclarationDate", "Date", true, {}},
        {"ValidFrom", "Date", true, {}},
        {"FirstName", "String", true, {}},
        {"LastName", "String", true, {}},
        {"HouseNameOrNumber", "String", true, {}},
        {"PostalCode", "String", false, {}},
        {"Overseas", "Boolean", false, {}},
        {"AcquisitionMethod", "Picklist", true, {"Online", "Paper"}}}},
      {"cpm_Receipts",
       "SendReceipt",
       {{"Email", "Email", true, {}}, {"Language", "Picklist", false, {"en", "de"}}}},
  };
  f.currency = "EUR";
  f.campaign_id = "7017Q00000Sprg1QAB";
  f.account_record_types = {"Business_Account"};
  f.crm_fields = {{kInstallmentObject, {{"Appeal_Code__c", 20}, {"Tribute_Name__c", 80}}},
                  {"cpm__Recurring_Payment__c", {{"Appeal_Code__c", 20}}},
                  {kInboundReportObject, {{"Form_Version__c", 20}}},
                  {kPaymentProfileObject, {{"cpm__Card_Holder_Name__c", 80}}}};
  return f;
}

}  // namespace runner::explore
