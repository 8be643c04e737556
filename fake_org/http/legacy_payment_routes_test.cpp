// The older /Payment interface (spec 4.7) over real HTTP: creates through the
// shared payment-intent operations, dedup flags, Enrich, recurring, failures
// in the body with HTTP 200 (spec 7.6), and GET /Payment/{ID}.
#include <catch2/catch.hpp>

#include "domain/core/fields.h"
#include "domain/payments/views.h"
#include "domain/store/idempotency.h"
#include "domain/store/record_store.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

const char* kJane = "0037Q00000JaneDQAR";
const char* kGreenfield = "0017Q00000GrnTrQAJ";

json legacy(json payer = json::parse(R"j({"Contact":{"FirstName":"Ada","LastName":"Lovelace",
                                            "Email":"ada@example.org"}})j"),
            json payment = {{"Amount", 25}}) {
  return {{"SuccessURL", "https://shop.example/thanks"},
          {"FailureURL", "https://shop.example/sorry"},
          {"Origin", "Legacy form"},
          {"Payer", payer},
          {"Payment", payment},
          {"PaymentMethod", {{"Name", "CreditCard"}}}};
}

RecordPtr record(TestOrg& t, const std::string& id) {
  return t.org().records().read([&](const RecordStore& s) { return s.get(id); });
}

void check_success(const Response& r) {
  REQUIRE(r.status == 200);
  INFO(r.body);
  CHECK(r.json["ResponseCode"] == "001");
  CHECK(r.json["IsSuccess"] == true);
}

}  // namespace

TEST_CASE("legacy one-time payment by contact fields creates contact and installment",
          "[http][legacy]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post("/Payment", legacy());
  check_success(r);
  std::string contact = r.json["Payer"]["ContactId"];
  CHECK(contact.rfind("003", 0) == 0);
  CHECK_FALSE(r.json["Payer"].contains("AccountId"));  // a contact standing alone
  CHECK(r.json["Payer"]["ContactDeduplicated"] == false);
  CHECK(r.json["Payer"]["AccountDeduplicated"] == false);
  CHECK(r.json["PaymentMethod"] ==
        json::parse(R"({"Name":"CreditCard","Processor":"Stripe","Target":"Online"})"));
  CHECK(r.json["SourceConnector"] == "cpm_Native");
  std::string redirect = r.json["RedirectURL"];  // the card is paid on the hosted page
  CHECK(redirect.find("/psp/checkout/cs_") != std::string::npos);

  std::string inst_id = r.json["Payment"]["InstallmentId"];
  auto inst = record(t, inst_id);
  REQUIRE(inst);
  CHECK(inst->object == "cpm__Installment__c");
  CHECK(inst->text(fields::installment::kContact) == contact);
  CHECK(inst->text(fields::installment::kOrigin) == "Legacy form");
  CHECK(record(t, contact)->text("Email") == "ada@example.org");

  // The same model answers the v2 reads: the inbound report names the interface.
  std::string pi = inst->text(fields::installment::kPaymentIntentId);
  auto status = t.get("/PaymentIntent/" + pi);
  REQUIRE(status.status == 200);
  CHECK(status.json["OneTime"]["Id"] == inst_id);
  auto report = t.org().records().read(
      [&](const RecordStore& s) { return s.get(s.find(index_name::kReportByIntent, {pi}).at(0)); });
  CHECK(report->text(fields::inbound_report::kInterface) == "Payment");
}

TEST_CASE("legacy payment by ContactId and with an Account", "[http][legacy]") {
  TestOrg t(fixture("default.yaml"));
  SECTION("ContactId names the contact; its account comes along") {
    auto r = t.post("/Payment", legacy({{"ContactId", kJane}}));
    check_success(r);
    CHECK(r.json["Payer"]["ContactId"] == kJane);
    CHECK(r.json["Payer"]["AccountId"] == kGreenfield);
    CHECK(r.json["Payer"]["ContactDeduplicated"] == false);  // named, not found
    CHECK(t.count("Contact") == 3);
  }
  SECTION("a new Account with AccountRecordTypeName and a new Contact linked to it") {
    auto r = t.post("/Payment", legacy(json::parse(R"j({
        "Contact":{"LastName":"Hopper","Email":"grace@navy.example"},
        "Account":{"Name":"Navy Computing Lab","BillingPostalCode":"20350"},
        "AccountRecordTypeName":"Business_Account","PrimaryRelation":"Contact"})j")));
    check_success(r);
    std::string account = r.json["Payer"]["AccountId"];
    CHECK(account.rfind("001", 0) == 0);
    CHECK(record(t, r.json["Payer"]["ContactId"])->text("AccountId") == account);
    CHECK(record(t, account)->text("RecordTypeName") == "Business_Account");
    CHECK(r.json["Payer"]["AccountDeduplicated"] == false);
  }
}

TEST_CASE("legacy dedup flags: a match with AllowDeduplication is reported, without it not",
          "[http][legacy][dedup]") {
  TestOrg t(fixture("default.yaml"));
  SECTION("dedup on, one contact matches by Email") {
    auto r = t.post("/Payment", legacy(json::parse(R"j({"AllowDeduplication":true,
        "Contact":{"LastName":"Doe","Email":"jane.doe@example.org"}})j")));
    check_success(r);
    CHECK(r.json["Payer"]["ContactId"] == kJane);
    CHECK(r.json["Payer"]["ContactDeduplicated"] == true);
    // The account came with the contact; no Account rule matched it.
    CHECK(r.json["Payer"]["AccountDeduplicated"] == false);
    CHECK(t.count("Contact") == 3);
  }
  SECTION("dedup on, the account matches by Name and BillingPostalCode") {
    auto r = t.post("/Payment", legacy(json::parse(R"j({"AllowDeduplication":true,
        "Account":{"Name":"Greenfield Community Trust","BillingPostalCode":"10115"},
        "Contact":{"LastName":"Newman","Email":"newman@example.org"}})j")));
    check_success(r);
    CHECK(r.json["Payer"]["AccountId"] == kGreenfield);
    CHECK(r.json["Payer"]["AccountDeduplicated"] == true);
    CHECK(r.json["Payer"]["ContactDeduplicated"] == false);
  }
  SECTION("dedup off: the same data makes a new contact") {
    auto r = t.post(
        "/Payment",
        legacy(json::parse(R"j({"Contact":{"LastName":"Doe","Email":"jane.doe@example.org"}})j")));
    check_success(r);
    CHECK(r.json["Payer"]["ContactId"] != kJane);
    CHECK(r.json["Payer"]["ContactDeduplicated"] == false);
    CHECK(t.count("Contact") == 4);
  }
}

TEST_CASE("legacy ContactUpdate Enrich fills empty fields and never overwrites", "[http][legacy]") {
  TestOrg t(fixture("default.yaml"));
  json payer = {{"ContactId", kJane},
                {"ContactUpdate", "Enrich"},
                {"Contact", {{"FirstName", "Janet"}, {"MobilePhone", "+49 30 1234567"}}}};
  auto r = t.post("/Payment", legacy(payer));
  check_success(r);
  auto jane = record(t, kJane);
  CHECK(jane->text("MobilePhone") == "+49 30 1234567");  // was empty: filled
  CHECK(jane->text("FirstName") == "Jane");              // had a value: kept

  SECTION("fields with ContactId but without ContactUpdate are refused, nothing written") {
    size_t installments = t.count("cpm__Installment__c");
    payer.erase("ContactUpdate");
    payer["Contact"] = {{"Title", "Dr."}};
    auto f = t.post("/Payment", legacy(payer));
    REQUIRE(f.status == 200);
    CHECK(f.json["IsSuccess"] == false);
    CHECK(f.json["ResponseCode"] == "200");
    CHECK(f.json["Message"].get<std::string>().find("Payer.ContactUpdate") != std::string::npos);
    CHECK(record(t, kJane)->text("Title").empty());
    CHECK(t.count("cpm__Installment__c") == installments);
  }
  SECTION("an unknown update mode is refused") {
    payer["ContactUpdate"] = "Overwrite";
    auto f = t.post("/Payment", legacy(payer));
    CHECK(f.json["IsSuccess"] == false);
    CHECK(f.json["Message"].get<std::string>().find("\"Enrich\"") != std::string::npos);
  }
}

TEST_CASE("legacy recurring payment for the native connector", "[http][legacy][recurring]") {
  TestOrg t(fixture("default.yaml"));
  json body = legacy();
  body.erase("Payment");
  body["Recurring"] = {{"Amount", 10}, {"Frequency", "Monthly"}, {"StartDate", "2027-02-01"}};
  SECTION("SEPA direct debit: no initial payment, an active recurring payment, no redirect") {
    body["PaymentMethod"] = {
        {"Name", "SEPA Direct Debit"},
        {"ParameterMap", {{"IBAN", "DE89370400440532013000"}, {"AccountHolderName", "Ada"}}},
        {"PaymentProfile", {{"cpm__Is_Default__c", true}}}};
    body["Recurring"]["CustomFields"] = {{"Appeal_Code__c", "SPRING27"}};
    auto r = t.post("/Payment", body);
    check_success(r);
    std::string rec_id = r.json["Recurring"]["Id"];
    auto rec = record(t, rec_id);
    REQUIRE(rec);
    CHECK(rec->object == "cpm__Recurring_Payment__c");
    CHECK(rec->text("Appeal_Code__c") == "SPRING27");
    CHECK(rec->text(fields::recurring_payment::kStatus) == "Active");
    CHECK_FALSE(r.json.contains("Payment"));
    CHECK_FALSE(r.json.contains("RedirectURL"));
    auto profile = record(t, rec->text(fields::recurring::kPaymentProfile));
    REQUIRE(profile);
    CHECK(profile->fields["cpm__Is_Default__c"] == true);
    auto view = t.get("/Recurring/" + rec_id);
    REQUIRE(view.status == 200);
    CHECK(view.json["Frequency"] == "Monthly");
  }
  SECTION("card: the processor requires an initial payment, so the first collection is one") {
    auto r = t.post("/Payment", body);
    check_success(r);
    std::string inst = r.json["Payment"]["InstallmentId"];
    CHECK(record(t, inst)->fields[fields::installment::kAmount] == 10);
    CHECK(r.json.contains("RedirectURL"));
    CHECK(record(t, r.json["Recurring"]["Id"])->object == "cpm__Recurring_Payment__c");
  }
  SECTION("PaymentProfile on a one-time payment is refused") {
    json one = legacy();
    one["PaymentMethod"]["PaymentProfile"] = {{"cpm__Is_Default__c", true}};
    auto r = t.post("/Payment", one);
    CHECK(r.json["IsSuccess"] == false);
    CHECK(r.json["Message"].get<std::string>().find("PaymentMethod.PaymentProfile") !=
          std::string::npos);
  }
}

TEST_CASE("legacy failures answer HTTP 200 with ResponseCode and IsSuccess false",
          "[http][legacy][errors]") {
  TestOrg t(fixture("default.yaml"));
  size_t contacts = t.count("Contact");
  SECTION("unknown payment method: nothing written") {
    json b = legacy();
    b["PaymentMethod"]["Name"] = "Cheque";
    auto r = t.post("/Payment", b);
    REQUIRE(r.status == 200);
    CHECK(r.json["ResponseCode"] == "200");
    CHECK(r.json["IsSuccess"] == false);
    CHECK(r.json["Message"].get<std::string>().find("Cheque") != std::string::npos);
    CHECK(t.count("Contact") == contacts);
    CHECK(t.count("cpm__Installment__c") == 0);
    CHECK(t.count("cpm__Inbound_Report__c") == 0);
  }
  SECTION("errors name the legacy fields") {
    json b = legacy(json::parse(R"j({"Contact":{"LastName":"X","Shoe_Size__c":42}})j"),
                    {{"Amount", 0}, {"CustomFields", {{"Nope__c", 1}}}});
    auto r = t.post("/Payment", b);
    std::string m = r.json["Message"];
    INFO(m);
    CHECK(m.find("Payment.Amount") != std::string::npos);
    CHECK(m.find("Payment.CustomFields.Nope__c") != std::string::npos);
    CHECK(m.find("OneTime") == std::string::npos);
    CHECK(t.count("Contact") == contacts);
  }
  SECTION("missing core parameters come first as 010") {
    json b = legacy();
    b.erase("SuccessURL");
    b["Payment"]["Amount"] = -5;
    auto r = t.post("/Payment", b);
    CHECK(r.json["ResponseCode"] == "010");
    CHECK(r.json["Message"].get<std::string>().find("SuccessURL") != std::string::npos);
  }
  SECTION("Payment and Recurring together, unknown fields, a body that is not JSON") {
    json b = legacy();
    b["Recurring"] = {{"Amount", 10}, {"Frequency", "Monthly"}, {"StartDate", "2027-02-01"}};
    CHECK(t.post("/Payment", b).json["ResponseCode"] == "010");
    json typo = legacy();
    typo["IdempotencyKey"] = "k-1";
    auto u = t.post("/Payment", typo);
    CHECK(u.json["ResponseCode"] == "200");
    CHECK(u.json["Message"].get<std::string>().find("IdempotencyKey") != std::string::npos);
    auto bad = t.post_raw("/Payment", "{\"SuccessURL\":");
    CHECK(bad.status == 200);
    CHECK(bad.json["ResponseCode"] == "010");
    CHECK(bad.json["IsSuccess"] == false);
  }
}

TEST_CASE("legacy pay an existing installment by InstallmentId", "[http][legacy]") {
  TestOrg t(fixture("default.yaml"));
  auto first = t.post("/Payment", legacy({{"ContactId", kJane}}));
  check_success(first);
  std::string inst = first.json["Payment"]["InstallmentId"];
  json pay = legacy();
  pay.erase("Payer");
  pay["Payment"] = {{"InstallmentId", inst}};
  pay["PaymentMethod"] = {{"Name", "PayPal"}};
  auto r = t.post("/Payment", pay);
  check_success(r);
  CHECK(r.json["Payment"]["InstallmentId"] == inst);
  CHECK(r.json["Payer"]["ContactId"] == kJane);
  CHECK(r.json["PaymentMethod"]["Name"] == "PayPal");
  CHECK(record(t, inst)->text(fields::installment::kMethod) == "PayPal");
}

TEST_CASE("GET /Payment/{ID} by installment id or GUID, recurring and unknown ids refused",
          "[http][legacy]") {
  TestOrg t(fixture("default.yaml"));
  auto created = t.post("/Payment", legacy({{"ContactId", kJane}}, {{"Amount", "12.50"}}));
  check_success(created);
  std::string inst = created.json["Payment"]["InstallmentId"];

  auto by_id = t.get("/Payment/" + inst);
  REQUIRE(by_id.status == 200);
  CHECK(by_id.json["ResponseCode"] == "001");
  CHECK(by_id.json["IsSuccess"] == true);
  CHECK(by_id.json["Payment"]["InstallmentId"] == inst);
  CHECK(by_id.json["Payment"]["Status"] == "Outstanding");
  CHECK(by_id.json["Payment"]["Amount"] == 12.5);
  CHECK(by_id.json["Payment"]["CurrencyISOCode"] == "EUR");
  // RecordTypeName is always there (decisions row 45): as GET /Installment shows it.
  CHECK(by_id.json["Payment"]["RecordTypeName"] == "Master");
  CHECK(t.get("/Installment/" + inst).json["RecordTypeName"] == "Master");

  auto by_guid = t.get("/Payment/" + record(t, inst)->guid);
  CHECK(by_guid.json["Payment"] == by_id.json["Payment"]);
  CHECK(t.get("/Payment/" + inst.substr(0, 15)).json["Payment"] == by_id.json["Payment"]);

  json rec_body = legacy({{"ContactId", kJane}});
  rec_body.erase("Payment");
  rec_body["Recurring"] = {{"Amount", 10}, {"Frequency", "Monthly"}, {"StartDate", "2027-02-01"}};
  rec_body["PaymentMethod"] = {
      {"Name", "SEPA Direct Debit"},
      {"ParameterMap", {{"IBAN", "DE89370400440532013000"}, {"AccountHolderName", "Jane Doe"}}}};
  auto rec = t.post("/Payment", rec_body);
  check_success(rec);
  auto refused = t.get("/Payment/" + rec.json["Recurring"]["Id"].get<std::string>());
  REQUIRE(refused.status == 200);
  CHECK(refused.json["IsSuccess"] == false);
  CHECK(refused.json["Message"].get<std::string>().find("GET /Recurring/") != std::string::npos);

  auto unknown = t.get("/Payment/a0F7Q00000ZZZZZ");
  CHECK(unknown.status == 200);
  CHECK(unknown.json["IsSuccess"] == false);
  CHECK(unknown.json["ResponseCode"] == "200");
  auto malformed = t.get("/Payment/not-an-id");
  CHECK(malformed.json["ResponseCode"] == "200");  // invalid data, as in a body (decisions 20)
  CHECK(t.get("/Payment/" + std::string(kJane)).json["IsSuccess"] == false);
}

TEST_CASE("legacy AccountUpdate Enrich fills the account's empty fields and never overwrites",
          "[http][legacy]") {
  TestOrg t(fixture("default.yaml"));
  json payer = {{"ContactId", kJane},
                {"AccountId", kGreenfield},
                {"AccountUpdate", "Enrich"},
                {"Account",
                 {{"Phone", "+49 30 7654321"},
                  {"Website", "https://greenfield.example"},
                  {"BillingCity", "Potsdam"}}}};
  auto r = t.post("/Payment", legacy(payer));
  check_success(r);
  CHECK(r.json["Payer"]["AccountId"] == kGreenfield);
  CHECK(r.json["Payer"]["AccountDeduplicated"] == false);  // named, not found
  auto account = t.admin_record("Account", kGreenfield);
  CHECK(account["Phone"] == "+49 30 7654321");                // was empty: filled
  CHECK(account["Website"] == "https://greenfield.example");  // was empty: filled
  CHECK(account["BillingCity"] == "Berlin");                  // had a value: kept
  CHECK(account["Name"] == "Greenfield Community Trust");

  SECTION("account fields with AccountId but without AccountUpdate are refused, nothing written") {
    size_t installments = t.count("cpm__Installment__c");
    payer.erase("AccountUpdate");
    payer["Account"] = {{"Description", "Should not land"}};
    auto f = t.post("/Payment", legacy(payer));
    REQUIRE(f.status == 200);
    CHECK(f.json["IsSuccess"] == false);
    CHECK(f.json["ResponseCode"] == "200");
    CHECK(f.json["Message"].get<std::string>().find("Payer.AccountUpdate") != std::string::npos);
    CHECK_FALSE(t.admin_record("Account", kGreenfield).contains("Description"));
    CHECK(t.count("cpm__Installment__c") == installments);
  }
}

TEST_CASE("legacy ContactRecordTypeName gives a new contact its record type", "[http][legacy]") {
  // default.yaml's Contact has no record types; this org adds two.
  TestOrg t(fixture_text(R"(extends: default.yaml
objects:
  Contact:
    record_types:
      - {name: Donor, label: Donor, default: true}
      - {name: Volunteer, label: Volunteer}
)"));
  json payer = json::parse(R"j({"ContactRecordTypeName":"Volunteer",
      "Contact":{"FirstName":"Grace","LastName":"Hopper","Email":"grace@navy.example"}})j");
  auto r = t.post("/Payment", legacy(payer));
  check_success(r);
  auto contact = t.admin_record("Contact", r.json["Payer"]["ContactId"]);
  CHECK(contact["RecordTypeName"] == "Volunteer");

  // Without it, the object's default.
  auto d = t.post(
      "/Payment",
      legacy(json::parse(R"j({"Contact":{"LastName":"Lovelace","Email":"ada@x.example"}})j")));
  check_success(d);
  CHECK(t.admin_record("Contact", d.json["Payer"]["ContactId"])["RecordTypeName"] == "Donor");

  // An unknown one is refused under the older field's name; nothing is created.
  size_t contacts = t.count("Contact");
  payer["ContactRecordTypeName"] = "Board_Member";
  payer["Contact"]["Email"] = "other@navy.example";
  auto f = t.post("/Payment", legacy(payer));
  REQUIRE(f.status == 200);
  CHECK(f.json["IsSuccess"] == false);
  CHECK(f.json["ResponseCode"] == "200");
  const std::string message = f.json["Message"];
  CHECK(message.find("Payer.ContactRecordTypeName") != std::string::npos);
  CHECK(message.find("Board_Member") != std::string::npos);
  CHECK(t.count("Contact") == contacts);
}

TEST_CASE("legacy PackageActions: a required action is checked and creates its declaration",
          "[http][legacy][package_actions]") {
  TestOrg t(fixture("default.yaml"));
  // Bacs through Access PaySuite requires cpm_GiftAid.Declaration (default.yaml).
  json body = legacy({{"ContactId", kJane}}, {{"Amount", 25}, {"CurrencyISOCode", "GBP"}});
  body["PaymentMethod"] = {{"Name", "Bacs Direct Debit"},
                           {"Processor", "Access PaySuite"},
                           {"ParameterMap",
                            {{"SortCode", "60-16-13"},
                             {"AccountNumber", "31926819"},
                             {"AccountHolderName", "Jane Doe"}}}};
  auto missing = t.post("/Payment", body);
  REQUIRE(missing.status == 200);
  CHECK(missing.json["IsSuccess"] == false);
  CHECK(missing.json["ResponseCode"] == "010");
  CHECK(missing.json["Message"].get<std::string>().find("cpm_GiftAid.Declaration") !=
        std::string::npos);
  CHECK(t.count("cpm__Installment__c") == 0);

  body["PackageActions"] = json::parse(R"j({"cpm_GiftAid": {"Declaration": {
    "DeclarationDate": "2027-02-20", "ValidFrom": "2027-02-20", "FirstName": "Jane",
    "LastName": "Doe", "HouseNameOrNumber": "12", "PostalCode": "SW1Y 4JH",
    "Overseas": false, "AcquisitionMethod": "Paper"}}})j");
  auto wrong = body;
  wrong["PackageActions"]["cpm_GiftAid"]["Declaration"]["AcquisitionMethod"] = "Pigeon";
  auto bad = t.post("/Payment", wrong);
  CHECK(bad.json["IsSuccess"] == false);
  CHECK(bad.json["ResponseCode"] == "200");
  CHECK(t.count(objects::kGiftAidDeclaration) == 0);

  auto r = t.post("/Payment", body);
  check_success(r);
  auto declarations = t.admin_records(objects::kGiftAidDeclaration);
  REQUIRE(declarations.size() == 1);
  const json& d = declarations[0];
  CHECK(d["cpm__Contact__c"] == kJane);
  CHECK(d["cpm__Declaration_Date__c"] == "2027-02-20");
  CHECK(d["cpm__Valid_From__c"] == "2027-02-20");
  CHECK(d["cpm__First_Name__c"] == "Jane");
  CHECK(d["cpm__Last_Name__c"] == "Doe");
  CHECK(d["cpm__House_Name_Or_Number__c"] == "12");
  CHECK(d["cpm__Postal_Code__c"] == "SW1Y 4JH");
  CHECK(d["cpm__Overseas__c"] == false);
  CHECK(d["cpm__Acquisition_Method__c"] == "Paper");
  auto inst = t.admin_record("cpm__Installment__c", r.json["Payment"]["InstallmentId"]);
  CHECK(d["cpm__Payment_Intent_Id__c"] == inst["cpm__Payment_Intent_Id__c"]);
}
