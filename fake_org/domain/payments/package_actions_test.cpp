// PackageActions (spec 2.8): checks against the org's packages and a
// processor's RequiredPackageActions, and the Gift Aid declaration record.
#include "package_actions.h"

#include <catch2/catch.hpp>

#include "testing/domain_org.h"

using namespace fake_org;
using nlohmann::json;

namespace {

const OrgConfig& actions_config() {
  static const OrgConfig c = testing::default_config();
  return c;
}

const ProcessorDef& processor(const std::string& method, const std::string& name) {
  const PaymentMethodDef* m = actions_config().payment_method(method);
  REQUIRE(m);
  const ProcessorDef* p = m->processor(name);
  REQUIRE(p);
  return *p;
}

json declaration() {
  return json::parse(R"j({"cpm_GiftAid": {"Declaration": {
    "DeclarationDate": "2027-02-20", "ValidFrom": "2027-02-20", "Title": "Ms",
    "FirstName": "Ada", "LastName": "Lovelace", "HouseNameOrNumber": "12",
    "Street": "St James's Square", "City": "London", "PostalCode": "SW1Y 4JH",
    "Country": "United Kingdom", "Overseas": false, "AcquisitionMethod": "Online"}}})j");
}

std::string fields_of(const ApiErrors& errors) {
  std::string out;
  for (const auto& e : errors) out += e.code + " " + e.field + "; ";
  return out;
}

}  // namespace

TEST_CASE("a processor's required package action must be sent", "[package_actions]") {
  const auto& paysuite = processor("Bacs Direct Debit", "Access PaySuite");
  auto r = check_package_actions(actions_config(), json::object(), "Bacs Direct Debit", paysuite);
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.errors().size() == 1);
  CHECK(r.errors()[0].code == "010");
  CHECK(r.errors()[0].field == "PackageActions.cpm_GiftAid.Declaration");
  CHECK(r.errors()[0].message.find("Bacs Direct Debit with processor Access PaySuite requires "
                                   "package action cpm_GiftAid.Declaration") != std::string::npos);

  auto ok = check_package_actions(actions_config(), declaration(), "Bacs Direct Debit", paysuite);
  INFO((ok.ok() ? std::string() : fields_of(ok.errors())));
  REQUIRE(ok.ok());
  REQUIRE(ok->size() == 1);
  CHECK((*ok)[0].action->name == "Declaration");

  // A processor without requirements takes the block or leaves it.
  const auto& smart = processor("Bacs Direct Debit", "SmartDebit");
  CHECK(check_package_actions(actions_config(), json::object(), "Bacs Direct Debit", smart).ok());
  CHECK(check_package_actions(actions_config(), declaration(), "Bacs Direct Debit", smart).ok());
}

TEST_CASE("package action parameters are checked against GET /PackageActions",
          "[package_actions]") {
  const auto& smart = processor("Bacs Direct Debit", "SmartDebit");
  const std::string p = "PackageActions.cpm_GiftAid.Declaration.";
  struct Case {
    const char* key;
    json value;  // null: remove
    std::string code;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"FirstName", nullptr, "010", "is required by package action cpm_GiftAid.Declaration"},
      {"DeclarationDate", "20/02/2027", "200", "must be a date YYYY-MM-DD"},
      {"Overseas", "maybe", "200", "must be true or false"},
      {"AcquisitionMethod", "Carrier pigeon", "200", "must be one of Online, Paper"},
      {"Nickname", "Ada", "200", "has no parameter 'Nickname'; its parameters: DeclarationDate"},
      // Longer than the declaration's field: no org could store it (STRING_TOO_LONG).
      {"PostalCode", std::string(21, 'P'), "200",
       "is stored in cpm__Gift_Aid_Declaration__c.cpm__Postal_Code__c, and the value"},
      {"Title", std::string(41, 'T'), "200",
       "is stored in cpm__Gift_Aid_Declaration__c.cpm__Salutation__c"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.key);
    json body = declaration();
    auto& params = body["cpm_GiftAid"]["Declaration"];
    if (c.value.is_null())
      params.erase(c.key);
    else
      params[c.key] = c.value;
    auto r = check_package_actions(actions_config(), body, "Bacs Direct Debit", smart);
    REQUIRE_FALSE(r.ok());
    REQUIRE(r.errors().size() == 1);
    CHECK(r.errors()[0].code == c.code);
    CHECK(r.errors()[0].field == p + c.key);
    INFO(r.errors()[0].message);
    CHECK(r.errors()[0].message.find(c.says) != std::string::npos);
  }

  auto unknown = check_package_actions(
      actions_config(), json::parse(R"({"npsp_Tributes": {"X": {}}})"), "Bacs Direct Debit", smart);
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.errors()[0].code == "200");
  CHECK(unknown.errors()[0].message.find("packages: cpm_GiftAid") != std::string::npos);
  auto action =
      check_package_actions(actions_config(), json::parse(R"({"cpm_GiftAid": {"Claim": {}}})"),
                            "Bacs Direct Debit", smart);
  REQUIRE_FALSE(action.ok());
  CHECK(action.errors()[0].field == "PackageActions.cpm_GiftAid.Claim");
  CHECK(action.errors()[0].message.find("its actions: Declaration") != std::string::npos);
  auto shape =
      check_package_actions(actions_config(), json::parse(R"({"cpm_GiftAid": ["Declaration"]})"),
                            "Bacs Direct Debit", smart);
  REQUIRE_FALSE(shape.ok());
  CHECK(shape.errors()[0].code == "200");
}

TEST_CASE("a Gift Aid declaration record carries the parameters' fields", "[package_actions]") {
  const auto& paysuite = processor("Bacs Direct Debit", "Access PaySuite");
  auto uses = check_package_actions(actions_config(), declaration(), "Bacs Direct Debit", paysuite);
  REQUIRE(uses.ok());
  IdGenerator ids(std::make_shared<SeededRandom>(7));
  auto rec = package_action_record(actions_config(), ids, testing::test_now(), uses->front(),
                                   {"0037Q00000JaneDQAR", "0017Q00000GrnTrQAJ", "pi_1"});
  REQUIRE(rec);
  CHECK(rec->object == "cpm__Gift_Aid_Declaration__c");
  CHECK(rec->id.substr(0, 3) == "a0A");
  const auto& x = rec->fields;
  CHECK(x["cpm__Contact__c"] == "0037Q00000JaneDQAR");
  CHECK(x["cpm__Account__c"] == "0017Q00000GrnTrQAJ");
  CHECK(x["cpm__Payment_Intent_Id__c"] == "pi_1");
  CHECK(x["cpm__Active__c"] == true);
  // The GUID is the record's (read as cpm__GUID__c), not kept twice.
  CHECK(rec->guid.size() == 36);
  CHECK_FALSE(x.contains("cpm__GUID__c"));
  CHECK(x["cpm__Declaration_Date__c"] == "2027-02-20");
  CHECK(x["cpm__Valid_From__c"] == "2027-02-20");
  CHECK_FALSE(x.contains("cpm__Valid_To__c"));
  CHECK(x["cpm__Salutation__c"] == "Ms");
  CHECK(x["cpm__First_Name__c"] == "Ada");
  CHECK(x["cpm__Last_Name__c"] == "Lovelace");
  CHECK(x["cpm__House_Name_Or_Number__c"] == "12");
  CHECK(x["cpm__Street__c"] == "St James's Square");
  CHECK(x["cpm__City__c"] == "London");
  CHECK(x["cpm__Postal_Code__c"] == "SW1Y 4JH");
  CHECK(x["cpm__Country__c"] == "United Kingdom");
  CHECK(x["cpm__Overseas__c"] == false);
  CHECK(x["cpm__Acquisition_Method__c"] == "Online");
  // Every field the record carries exists on the object in the catalog.
  const ObjectDef* def = actions_config().object("cpm__Gift_Aid_Declaration__c");
  REQUIRE(def);
  for (const auto& [k, v] : x.items()) {
    CAPTURE(k);
    CHECK(def->field(k));
  }
}

TEST_CASE("a Number parameter given as digits no double holds is stored as its text",
          "[package_actions][number_overflow]") {
  ParameterDef def;
  def.name = "Amount";
  def.data_type = "Number";
  CHECK(package_parameter_value(def, "12.50") == 12.5);
  // 400 digits pass the digits check; parsed they overflow a double, which
  // the non-throwing parse turned into a discarded value ("<discarded>" in a
  // dump, not JSON).
  const std::string huge = "1" + std::string(400, '0');
  const json v = package_parameter_value(def, huge);
  CHECK_FALSE(v.is_discarded());
  CHECK(v == huge);
}
