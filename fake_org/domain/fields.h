#pragma once
// Field API names the domain itself reads and writes (system fields of the
// built-in catalog, fixtures/base/standard_objects.yaml). One place, so a
// rename is one edit and a typo is a compile error.
namespace fake_org::fields {

inline constexpr const char* kName = "Name";
inline constexpr const char* kGuid = "cpm__GUID__c";
inline constexpr const char* kCurrency = "CurrencyIsoCode";
inline constexpr const char* kRecordTypeName = "RecordTypeName";

namespace installment {
inline constexpr const char* kStatus = "cpm__Status__c";
inline constexpr const char* kAmount = "cpm__Amount__c";
inline constexpr const char* kAmountOpen = "cpm__Amount_Open__c";
inline constexpr const char* kDueDate = "cpm__Due_Date__c";
inline constexpr const char* kCollectionDate = "cpm__Collection_Date__c";
inline constexpr const char* kContact = "cpm__Contact__c";
inline constexpr const char* kAccount = "cpm__Account__c";
inline constexpr const char* kCampaign = "cpm__Campaign__c";
inline constexpr const char* kMethod = "cpm__Payment_Method__c";
inline constexpr const char* kProcessor = "cpm__Payment_Processor__c";
inline constexpr const char* kTarget = "cpm__Target__c";
inline constexpr const char* kSourceConnector = "cpm__Source_Connector__c";
inline constexpr const char* kPaymentIntentId = "cpm__Payment_Intent_Id__c";
inline constexpr const char* kInboundReport = "cpm__Inbound_Report__c";
inline constexpr const char* kRecurringPayment = "cpm__Recurring_Payment__c";
inline constexpr const char* kRecurringDonation = "cpm__Recurring_Donation__c";
inline constexpr const char* kGiftCommitment = "cpm__Gift_Commitment__c";
inline constexpr const char* kGiftCommitmentSchedule = "cpm__Gift_Commitment_Schedule__c";
inline constexpr const char* kMandate = "cpm__Mandate__c";
inline constexpr const char* kPaymentProfile = "cpm__Payment_Profile__c";
inline constexpr const char* kPayUrl = "cpm__Pay_URL__c";
inline constexpr const char* kOrigin = "cpm__Origin__c";
inline constexpr const char* kSuccessUrl = "cpm__Success_URL__c";
inline constexpr const char* kFailureUrl = "cpm__Failure_URL__c";
inline constexpr const char* kWebhookUrl = "cpm__Webhook_URL__c";
inline constexpr const char* kFailureReason = "cpm__Failure_Reason__c";
}  // namespace installment

namespace payment {
inline constexpr const char* kInstallment = "cpm__Installment__c";
inline constexpr const char* kStatus = "cpm__Status__c";
inline constexpr const char* kAmount = "cpm__Amount__c";
inline constexpr const char* kCollectionDate = "cpm__Collection_Date__c";
inline constexpr const char* kMethod = "cpm__Payment_Method__c";
inline constexpr const char* kProcessor = "cpm__Payment_Processor__c";
inline constexpr const char* kTarget = "cpm__Target__c";
inline constexpr const char* kContact = "cpm__Contact__c";
inline constexpr const char* kAccount = "cpm__Account__c";
inline constexpr const char* kPaymentIntentId = "cpm__Payment_Intent_Id__c";
inline constexpr const char* kPspReference = "cpm__PSP_Reference__c";
}  // namespace payment

namespace inbound_report {
inline constexpr const char* kPaymentIntentId = "cpm__Payment_Intent_Id__c";
inline constexpr const char* kStatus = "cpm__Status__c";
inline constexpr const char* kProcessingType = "cpm__Processing_Type__c";
inline constexpr const char* kOperation = "cpm__Operation__c";
inline constexpr const char* kInterface = "cpm__Interface__c";
inline constexpr const char* kOrigin = "cpm__Origin__c";
inline constexpr const char* kWebhookUrl = "cpm__Webhook_URL__c";
inline constexpr const char* kSuccessUrl = "cpm__Success_URL__c";
inline constexpr const char* kFailureUrl = "cpm__Failure_URL__c";
inline constexpr const char* kIdempotencyKey = "cpm__Idempotency_Key__c";
inline constexpr const char* kRawRequest = "cpm__Raw_Request__c";
inline constexpr const char* kSourceConnector = "cpm__Source_Connector__c";
inline constexpr const char* kMethod = "cpm__Payment_Method__c";
inline constexpr const char* kProcessor = "cpm__Payment_Processor__c";
inline constexpr const char* kTarget = "cpm__Target__c";
inline constexpr const char* kContact = "cpm__Contact__c";
inline constexpr const char* kAccount = "cpm__Account__c";
inline constexpr const char* kCampaign = "cpm__Campaign__c";
inline constexpr const char* kInstallment = "cpm__Installment__c";
inline constexpr const char* kRecurringId = "cpm__Recurring_Id__c";
inline constexpr const char* kRecurringObject = "cpm__Recurring_Object__c";
inline constexpr const char* kReviewReason = "cpm__Review_Reason__c";
inline constexpr const char* kErrorMessage = "cpm__Error_Message__c";
inline constexpr const char* kProcessedDate = "cpm__Processed_Date__c";
inline constexpr const char* kNotes = "cpm__Notes__c";
}  // namespace inbound_report

namespace contact {
inline constexpr const char* kFirstName = "FirstName";
inline constexpr const char* kLastName = "LastName";
inline constexpr const char* kAccountId = "AccountId";
}  // namespace contact

}  // namespace fake_org::fields
