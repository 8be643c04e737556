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

// The recurring records of the three connector kinds (spec 1, 2.5) and the
// mandate and payment profile beside them (spec 2.5, 2.12).
namespace recurring {
// Fields every connector's recurring object carries (the package's own).
inline constexpr const char* kMethod = "cpm__Payment_Method__c";
inline constexpr const char* kProcessor = "cpm__Payment_Processor__c";
inline constexpr const char* kTarget = "cpm__Target__c";
inline constexpr const char* kSourceConnector = "cpm__Source_Connector__c";
inline constexpr const char* kMandate = "cpm__Mandate__c";
inline constexpr const char* kPaymentProfile = "cpm__Payment_Profile__c";
inline constexpr const char* kPaymentIntentId = "cpm__Payment_Intent_Id__c";
inline constexpr const char* kSetupUrl = "cpm__Setup_URL__c";
inline constexpr const char* kDescription = "cpm__Description__c";
}  // namespace recurring

namespace recurring_payment {  // cpm__Recurring_Payment__c (native)
inline constexpr const char* kAmount = "cpm__Amount__c";
inline constexpr const char* kFrequency = "cpm__Frequency__c";
inline constexpr const char* kStartDate = "cpm__Start_Date__c";
inline constexpr const char* kEndDate = "cpm__End_Date__c";
inline constexpr const char* kNextCollectionDate = "cpm__Next_Collection_Date__c";
inline constexpr const char* kStatus = "cpm__Status__c";
inline constexpr const char* kContact = "cpm__Contact__c";
inline constexpr const char* kAccount = "cpm__Account__c";
inline constexpr const char* kCampaign = "cpm__Campaign__c";
}  // namespace recurring_payment

namespace recurring_donation {  // npe03__Recurring_Donation__c (nonprofit)
inline constexpr const char* kAmount = "npe03__Amount__c";
inline constexpr const char* kPeriod = "npe03__Installment_Period__c";
inline constexpr const char* kDateEstablished = "npe03__Date_Established__c";
inline constexpr const char* kNextPaymentDate = "npe03__Next_Payment_Date__c";
inline constexpr const char* kContact = "npe03__Contact__c";
inline constexpr const char* kOrganization = "npe03__Organization__c";
inline constexpr const char* kCampaign = "npe03__Recurring_Donation_Campaign__c";
inline constexpr const char* kOpenEndedStatus = "npe03__Open_Ended_Status__c";
inline constexpr const char* kStartDate = "npsp__StartDate__c";
inline constexpr const char* kEndDate = "npsp__EndDate__c";
inline constexpr const char* kStatus = "npsp__Status__c";
inline constexpr const char* kRecurringType = "npsp__RecurringType__c";
}  // namespace recurring_donation

namespace gift_commitment {  // GiftCommitment (fundraising)
inline constexpr const char* kDescription = "Description";
inline constexpr const char* kDonor = "DonorId";
inline constexpr const char* kStatus = "Status";
inline constexpr const char* kCampaign = "CampaignId";
inline constexpr const char* kCurrentSchedule = "CurrentGiftCmtScheduleId";
inline constexpr const char* kScheduleType = "ScheduleType";
inline constexpr const char* kEffectiveStartDate = "EffectiveStartDate";
inline constexpr const char* kExpectedEndDate = "ExpectedEndDate";
inline constexpr const char* kNextTransactionAmount = "NextTransactionAmount";
inline constexpr const char* kNextTransactionDate = "NextTransactionDate";
}  // namespace gift_commitment

namespace gift_schedule {  // GiftCommitmentSchedule (fundraising)
inline constexpr const char* kCommitment = "GiftCommitmentId";
inline constexpr const char* kAmount = "TransactionAmount";
inline constexpr const char* kPeriod = "TransactionPeriod";
inline constexpr const char* kInterval = "TransactionInterval";
inline constexpr const char* kStartDate = "StartDate";
inline constexpr const char* kEndDate = "EndDate";
inline constexpr const char* kType = "Type";
inline constexpr const char* kPaymentMethod = "PaymentMethod";
inline constexpr const char* kCampaign = "CampaignId";
}  // namespace gift_schedule

namespace mandate {
inline constexpr const char* kStatus = "cpm__Status__c";
inline constexpr const char* kContact = "cpm__Contact__c";
inline constexpr const char* kAccount = "cpm__Account__c";
inline constexpr const char* kPaymentProfile = "cpm__Payment_Profile__c";
inline constexpr const char* kRecurringPayment = "cpm__Recurring_Payment__c";
inline constexpr const char* kRecurringDonation = "cpm__Recurring_Donation__c";
inline constexpr const char* kGiftCommitment = "cpm__Gift_Commitment__c";
inline constexpr const char* kMethod = "cpm__Payment_Method__c";
inline constexpr const char* kProcessor = "cpm__Payment_Processor__c";
inline constexpr const char* kTarget = "cpm__Target__c";
inline constexpr const char* kBankScheme = "cpm__Bank_Scheme__c";
inline constexpr const char* kReference = "cpm__Mandate_Reference__c";
inline constexpr const char* kSignatureDate = "cpm__Signature_Date__c";
inline constexpr const char* kDeactivationDate = "cpm__Deactivation_Date__c";
inline constexpr const char* kToken = "cpm__Token__c";
inline constexpr const char* kPaymentIntentId = "cpm__Payment_Intent_Id__c";
}  // namespace mandate

namespace payment_profile {
inline constexpr const char* kContact = "cpm__Contact__c";
inline constexpr const char* kAccount = "cpm__Account__c";
inline constexpr const char* kMethod = "cpm__Payment_Method__c";
inline constexpr const char* kProcessor = "cpm__Payment_Processor__c";
inline constexpr const char* kActive = "cpm__Active__c";
inline constexpr const char* kToken = "cpm__Token__c";
inline constexpr const char* kIban = "cpm__IBAN__c";
inline constexpr const char* kBic = "cpm__BIC__c";
inline constexpr const char* kAccountHolderName = "cpm__Account_Holder_Name__c";
inline constexpr const char* kSortCode = "cpm__Sort_Code__c";
inline constexpr const char* kAccountNumber = "cpm__Account_Number__c";
inline constexpr const char* kClearingNumber = "cpm__Clearing_Number__c";
inline constexpr const char* kRoutingNumber = "cpm__Routing_Number__c";  // US ACH (ABA)
}  // namespace payment_profile

namespace contact {
inline constexpr const char* kFirstName = "FirstName";
inline constexpr const char* kLastName = "LastName";
inline constexpr const char* kAccountId = "AccountId";
}  // namespace contact

}  // namespace fake_org::fields
