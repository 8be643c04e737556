#pragma once
// OrgConfig: everything the spec calls "org configuration", as a fixture
// declares it (fixture/fixture_loader.h reads YAML into it). Immutable once
// loaded; shared read-only between threads.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "domain/core/clock.h"
#include "util/rsa.h"

namespace fake_org {

// ---- objects and fields (for CrmFields checks, spec 2.1) -------------------

enum class FieldType {
  kText,      // length = max characters
  kTextArea,  // length = max characters
  kEmail,
  kPhone,
  kUrl,
  kNumber,    // precision/scale
  kCurrency,  // precision/scale
  kPercent,
  kDate,      // YYYY-MM-DD
  kDateTime,  // ISO 8601
  kBoolean,
  kPicklist,  // one of picklist_values
  kMultiPicklist,
  kReference,  // record id of reference_to
};

struct FieldDef {
  std::string name;  // API name, e.g. "MailingPostalCode", "Donor_Level__c"
  FieldType type = FieldType::kText;
  int length = 255;    // text types
  int precision = 18;  // number types: total digits
  int scale = 2;       // number types: digits after the point
  std::vector<std::string> picklist_values;
  std::string reference_to;  // object API name for kReference
  bool system = false;       // set by the org itself, not writable through CrmFields
  // An external id (upsert PATCH sobjects/{Type}/{Field}/{value} looks
  // records up by it through an index); `unique`: no two records share a
  // value, compared without case.
  bool external_id = false;
  bool unique = false;
  // A reference only: deleting the record it names deletes this record too
  // (as an Account's delete takes its Contacts); else the reference is cleared.
  bool cascade_delete = false;
};

struct RecordTypeDef {
  std::string name;  // developer (API) name, e.g. "PersonAccount", "Household_Account"
  std::string label;
  bool person_account = false;  // Account record types only (spec 2.2 rule 2)
  bool is_default = false;
};

struct ObjectDef {
  std::string api_name;  // "Contact", "cpm__Installment__c", "GiftCommitment"
  std::string label;
  std::string key_prefix;  // 3 characters, e.g. "003"
  std::vector<FieldDef> fields;
  std::vector<RecordTypeDef> record_types;
  // The org's own objects (User, Profile, RecordType, Organization): read
  // through the data API, never written through it.
  bool read_only = false;
  // The fixture's `list_fields`: the columns a record list (the dashboard's)
  // shows after Id, in this order. Empty: computed from the fields
  // (admin/list_fields.h).
  std::vector<std::string> list_fields;

  // Field API names are case-insensitive on the platform.
  const FieldDef* field(std::string_view name) const;
  const RecordTypeDef* record_type(std::string_view name) const;
  const RecordTypeDef* default_record_type() const;
  // Makes field() a hash lookup (a request asks for a dozen fields by name).
  // Call again after changing `fields`; until then field() walks them.
  void index_fields();

  // field()'s table: positions in `fields` + 1 by the hash of the lower-cased
  // name, open addressing; 0 is empty. Kept only while `fields` has the size
  // it was built for.
  std::vector<uint16_t> field_table;
  size_t field_table_for = 0;
};

// ---- payment methods (spec 2.6, 4.5) --------------------------------------

enum class InitialPayment { kRequired, kOptional, kNo };
const char* to_string(InitialPayment v);  // "Required" | "Optional" | "No"

// One choice of an Enum parameter (the package's layout: iDEAL's issuing banks).
struct EnumOption {
  std::string value;
  std::string label;
  std::string image;  // URL of an SVG; empty: none
};

// A parameter of a processor, source connector or package action.
struct ParameterDef {
  std::string name;
  // String | Number | Boolean | Date | Email | Picklist | Enum
  std::string data_type = "String";
  bool required = false;
  std::string description;
  std::vector<std::string> values;  // for Picklist
  std::vector<EnumOption> options;  // for Enum
  // Package actions only: the field of the action's creates_object that this
  // parameter fills (e.g. "cpm__Postal_Code__c"); empty when not stored.
  std::string field;
};

struct TargetDef {
  std::string name;
  bool is_default = false;
};

// Which bank-account rules (codes 201..206) apply to a method's account data.
enum class BankScheme { kNone, kSepa, kBacs, kAutogiro };

// What the payer pays with, and so what the PSP asks on its hosted page and
// returns: card data (brand, last four, expiry), a bank account (IBAN and
// holder), or a wallet login (payer email and the wallet's account id).
enum class MethodKind { kCard, kBank, kWallet };
const char* to_string(MethodKind v);  // "card" | "bank" | "wallet"

struct ProcessorDef {
  std::string name;
  bool is_default = false;
  InitialPayment initial_payment_on_recurring = InitialPayment::kOptional;
  bool supports_recurring = true;
  bool hosted_page = false;  // the payer must act on the PSP's page: RedirectURL
  std::vector<TargetDef> targets;
  std::vector<ParameterDef> parameters;  // missing required ones: error 011
  // "Package.Action" names that must be in PackageActions when this is used.
  std::vector<std::string> required_package_actions;
  std::string image;  // URL of the processor's SVG logo; empty: none

  const TargetDef* target(std::string_view name) const;
  const TargetDef* default_target() const;
};

struct PaymentMethodDef {
  std::string name;  // "CreditCard", "SEPA Direct Debit"
  BankScheme bank_scheme = BankScheme::kNone;
  // Fixture `kind`; default: bank when bank_scheme is set, card otherwise.
  // Always kBank when bank_scheme is set (the loader refuses anything else),
  // so "is this a bank method" is `kind == kBank` alone.
  MethodKind kind = MethodKind::kCard;
  // Spec 4.5 lists "activated" methods: a fixture may keep one configured but
  // switched off (`active: false`) to test a client against a method the org
  // withdrew. It is left out of GET /PaymentMethods and refused by name.
  bool active = true;
  std::vector<ProcessorDef> processors;
  std::string image;  // URL of the method's SVG logo; empty: none

  const ProcessorDef* processor(std::string_view name) const;
  const ProcessorDef* default_processor() const;
};

// ---- source connectors (spec 1, 2.5, 4.6) ----------------------------------

// What each kind keeps where: its descriptor (connectors.h).
enum class ConnectorKind {
  kNative,       // recurring payment object
  kNonprofit,    // recurring donation
  kFundraising,  // gift commitment + gift commitment schedule
};

struct SourceConnectorDef {
  std::string name;         // "cpm_Native"
  std::string pretty_name;  // "Payment Intent (native)"
  bool is_default = false;
  ConnectorKind kind = ConnectorKind::kNative;
  std::string recurring_object;  // "cpm__Recurring_Payment__c", "npe03__Recurring_Donation__c",
                                 // "GiftCommitment"
  std::string schedule_object;   // kinds with a schedule: "GiftCommitmentSchedule"
  std::vector<std::string> frequencies;  // allowed Recurring.Frequency values
  std::vector<ParameterDef> parameters;  // missing required ones: error 012
};

// ---- package actions (spec 2.8, 4.6) ---------------------------------------

struct PackageActionDef {
  std::string name;  // "GiftAidDeclaration"
  std::string description;
  std::vector<ParameterDef> parameters;
  std::string
      creates_object;  // record created per use, e.g. "cpm__Gift_Aid_Declaration__c"; may be empty
};

struct PackageDef {
  std::string name;  // "cpm_GiftAid"
  std::string description;
  std::vector<PackageActionDef> actions;

  const PackageActionDef* action(std::string_view name) const;
};

// ---- processing types and guided matching (spec 1, 2.7, 2.12) --------------

// One rule of a processing type: when the condition holds for the request,
// the inbound report goes to `outcome` instead of Matched.
struct MatchingRule {
  std::string name;
  std::string path;  // dotted path into the request body, e.g. "OneTime.Amount"
  enum class Condition {
    kMissing,
    kEquals,
    kGreaterThan,
    kLessThan,
    kMatches
  } condition = Condition::kMissing;
  nlohmann::json value;                   // operand for equals/greater/less/matches
  std::string outcome = "Guided Review";  // "Guided Review" | "Failed"
  std::string reason;                     // shown on the inbound report
};

struct ProcessingTypeDef {
  std::string name;  // "Default" always exists
  std::string description;
  std::vector<MatchingRule> rules;
};

// ---- webhooks (spec 6) -----------------------------------------------------

struct RemoteSiteDef {
  std::string name;
  std::string url;  // scheme://host[:port][/path-prefix]; no port = any port
  bool active = true;
};

struct WebhookSettings {
  bool emit_created = true;  // paymentIntent.created (spec 6.2: one revision lists it)
  // "event": installment.created / installment.status_change; "sample": plain "installment"
  // (spec 6.3)
  std::string installment_type_style = "event";
  std::string signing_secret;  // empty: unsigned
  // As the default fixture: ~17 minutes of retries on average (decisions row 21).
  int max_attempts = 40;
  Millis attempt_timeout{5000};
  Millis backoff_initial{1000};
  Millis backoff_max{60000};
  // Delivery threads: each holds one attempt (up to attempt_timeout) at a time.
  int workers = 2;
  // Deliveries pending in all (queued or retrying); more are logged failed
  // ("queue full"), so a receiver that never answers cannot grow memory unbounded.
  int max_pending = 10000;
};

// ---- auth (spec 5) ---------------------------------------------------------

struct ConnectedAppDef {
  std::string name;
  std::string client_id;
  std::string client_secret;
  std::vector<std::string> redirect_uris;  // exact match for the web server flow
  bool client_credentials = true;          // client_credentials grant enabled
  // PEM X.509 certificate whose key verifies JWT bearer assertions (RS256);
  // empty: the app takes no JWT bearer grant.
  std::string certificate = {};
  // Its key, when the fixture loader has already read it (reading one costs
  // a start a millisecond); the token store reads `certificate` otherwise.
  std::shared_ptr<const crypto::PublicKey> certificate_key = {};
};

// A user of the org: who a token acts as, and what the identity service tells.
struct UserDef {
  std::string username;  // "integration@local.example"; unique, compared without case
  std::string id;        // 18 characters, key prefix 005
  std::string first_name;
  std::string last_name;
  std::string email;
  std::string profile = "System Administrator";
  std::string time_zone = "Europe/Amsterdam";
  std::string locale = "en_US";
  std::string language = "en_US";
  // The username-password flow: the password, then the security token
  // appended to it (the platform's rule for logins from outside trusted IPs).
  std::string password;
  std::string security_token;

  std::string display_name() const;
};

// The user a fixture without `auth.users` has: the id every earlier token
// named (key prefix 005, User).
inline constexpr const char* kIntegrationUserId15 = "0055J0000000001";
UserDef default_integration_user();

struct AuthSettings {
  Millis token_lifetime{2 * 3600 * 1000};
  Millis refresh_token_lifetime{0};  // 0: until revoked
  std::vector<ConnectedAppDef> connected_apps;
  // The first is the integration user: the user of the client credentials
  // flow and of the approval page. Never empty once the fixture is loaded.
  std::vector<UserDef> users;
  // grant_type=password; orgs block it by default ("Allow OAuth
  // Username-Password Flows" off), and so does the fake.
  bool password_flow = false;

  const ConnectedAppDef* app(std::string_view client_id) const;
  const UserDef* user(std::string_view username) const;  // without case
  const UserDef* user_by_id(std::string_view id) const;
  const UserDef& integration_user() const;  // users.front()
};

// ---- seed records ----------------------------------------------------------

struct SeedRecord {
  std::string object;       // API name
  std::string id;           // optional fixed id (15/18 chars); generated when empty
  std::string guid;         // optional fixed GUID
  std::string record_type;  // developer name; empty: the object's default record type
  nlohmann::json fields;    // field API name -> value
};

// ---- the org ---------------------------------------------------------------

enum class DateFormat { kIso, kDayMonthYear };  // "2027-01-31" | "31-01-2027"

// The layouts of the answers the spec leaves "not shown": the fake's own
// (`spec`) or those of the real package's public samples (`package`).
enum class ResponseStyle { kSpec, kPackage };

struct OrgSettings {
  std::string name = "Local Fake Org";
  std::string org_id;                // 00D... (18 chars); generated when empty
  bool sandbox = false;              // production or sandbox (spec 5.3)
  std::string api_version = "68.0";  // the newest version served (decision 139)
  std::string default_currency = "EUR";
  std::vector<std::string> currencies{"EUR"};
  std::string installment_initial_status = "Outstanding";  // or "Pending"
  std::string installment_failed_status = "Failed";        // after a declined collection
  DateFormat recurring_date_format = DateFormat::kIso;
  Millis idempotency_window{24 * 3600 * 1000};
  // error_code -> HTTP status overrides of the default mapping (docs/decisions.md).
  std::map<std::string, int> error_status;
  std::optional<std::string> base_path;  // default "/services/apexrest/cpm/v2"
  // A payer with a Contact and no Account: "none" leaves the contact without an
  // account; "household" creates "<LastName> Household" of the Account's default
  // record type, as the nonprofit package does.
  std::string contact_without_account = "none";
  // Due dates of a recurring series before the day it became collectable
  // (created, or activated by its hosted page): "skip" (none is billed, as a
  // real scheduler's first run) or "catch_up" (each is created and collected
  // at the next clock move). Decisions row 50.
  std::string recurring_backfill = "skip";
  // Spec 8 shows no payload limit; the fake takes Apex's synchronous heap,
  // 6 MB, as the largest body an Apex REST endpoint could hold (decisions 43).
  size_t max_body_bytes = 6 * 1024 * 1024;
  // The most records the org holds (deleted ones too); past it a write that
  // adds records answers STORAGE_LIMIT_EXCEEDED (decision 198). 0: no cap.
  size_t max_records = 0;
  // How long a hosted payment page stays open after the intent created it,
  // on the org clock (a PSP's checkout session lives a day; decisions 96).
  Millis psp_session_expiry{24 * 3600 * 1000};
  // How long a Bulk API 2.0 job takes on the org clock at the least: a
  // finished job reports InProgress until then (decision 150; 0: at once).
  Millis bulk_processing_time{0};
  ResponseStyle response_style = ResponseStyle::kSpec;
  // The package's pay link site page; `package` installments show
  // `PayLinkPage` = this URL with `?id=<GUID>`. Empty: none.
  std::string pay_link_page;
};

struct OrgConfig {
  std::string source_name;  // file path or "embedded:default.yaml", for messages
  // SHA-256 (hex) of the fixture's text and its extends chain: a data
  // directory made from another fixture is refused.
  std::string digest;
  // The source names of the fixture and of those it extends, nearest first
  // ("package.yaml" extends "embedded:default.yaml"): what a tool comparing
  // orgs needs to know which configurations this one builds on.
  std::vector<std::string> extends_chain;
  OrgSettings org;
  AuthSettings auth;
  std::map<std::string, ObjectDef, std::less<>> objects;  // by API name
  std::vector<PaymentMethodDef> payment_methods;
  std::vector<SourceConnectorDef> source_connectors;
  std::vector<PackageDef> packages;
  // object API name -> rules; each rule is a set of field names that must all match.
  std::map<std::string, std::vector<std::vector<std::string>>> deduplication;
  std::vector<ProcessingTypeDef> processing_types;
  std::vector<RemoteSiteDef> remote_sites;
  WebhookSettings webhooks;
  std::vector<SeedRecord> seed;

  const ObjectDef* object(std::string_view api_name) const;
  const PaymentMethodDef* payment_method(std::string_view name) const;
  const SourceConnectorDef* source_connector(std::string_view name) const;
  const SourceConnectorDef* default_source_connector() const;
  // The connector whose recurring (or schedule) object is `api_name`.
  const SourceConnectorDef* connector_for_object(std::string_view api_name) const;
  const PackageDef* package(std::string_view name) const;
  const ProcessingTypeDef* processing_type(std::string_view name) const;
  bool has_currency(std::string_view iso) const;
  std::string base_path() const { return org.base_path.value_or("/services/apexrest/cpm/v2"); }
};

// The package's own objects, by the role they play in the domain.
namespace objects {
inline constexpr const char* kContact = "Contact";
inline constexpr const char* kAccount = "Account";
inline constexpr const char* kCampaign = "Campaign";
inline constexpr const char* kInstallment = "cpm__Installment__c";
inline constexpr const char* kPayment = "cpm__Payment__c";
inline constexpr const char* kMandate = "cpm__Mandate__c";
inline constexpr const char* kPaymentProfile = "cpm__Payment_Profile__c";
inline constexpr const char* kInboundReport = "cpm__Inbound_Report__c";
inline constexpr const char* kRecurringPayment = "cpm__Recurring_Payment__c";
inline constexpr const char* kRecurringDonation = "npe03__Recurring_Donation__c";
inline constexpr const char* kGiftCommitment = "GiftCommitment";
inline constexpr const char* kGiftCommitmentSchedule = "GiftCommitmentSchedule";
inline constexpr const char* kGiftAidDeclaration = "cpm__Gift_Aid_Declaration__c";
}  // namespace objects

}  // namespace fake_org
