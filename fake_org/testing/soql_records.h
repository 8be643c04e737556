#pragma once
// A small org for the SOQL tests: the default fixture's seeds (three
// campaigns, one account, three contacts) plus three contacts, three
// installments and a payment holding every field type the engine compares.
// Its clock stands at 2027-03-01T09:00:00Z, a Monday.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "domain/soql/soql.h"
#include "domain/store/record_store.h"
#include "testing/domain_org.h"

namespace fake_org::testing {

using nlohmann::json;

inline const std::string kAda = testing::new_id("003", 901);
inline const std::string kGrace = testing::new_id("003", 902);
inline const std::string kPat = testing::new_id("003", 903);
inline const std::string kInst1 = testing::new_id("a0F", 901);
inline const std::string kInst2 = testing::new_id("a0F", 902);
inline const std::string kInst3 = testing::new_id("a0F", 903);
inline const std::string kPayment = testing::new_id("a0G", 901);
inline const std::string kInst1Guid = "5d0c1c9e-0a43-4a8e-9f0e-1f6d2b7c0a01";

inline TimePoint at(const char* iso) {
  return *parse_iso8601(iso);
}

// The default fixture with one multi-select picklist on Contact.
inline OrgConfig soql_config() {
  OrgConfig config = testing::default_config();
  FieldDef skills;
  skills.name = "Skills__c";
  skills.type = FieldType::kMultiPicklist;
  skills.picklist_values = {"Math", "Poetry", "Navy", "Chess"};
  config.objects["Contact"].fields.push_back(skills);
  return config;
}

inline Record record(const char* object, const std::string& id, json fields, TimePoint created) {
  Record r;
  r.object = object;
  r.id = id;
  r.fields = std::move(fields);
  r.created = r.modified = created;
  return r;
}

struct SoqlOrg {
  testing::DomainOrg test{soql_config()};

  SoqlOrg() {
    std::vector<Record> records = {
        record("Contact", kAda,
               {{"FirstName", "Ada"},
                {"LastName", "Lovelace"},
                {"Email", "Ada@Example.org"},
                {"Donor_Level__c", "Gold"},
                {"Lifetime_Giving__c", 1500.5},
                {"Donor_Since__c", "2027-02-27"},
                {"Newsletter_Opt_In__c", true},
                {"Skills__c", "Math;Poetry"},
                {"AccountId", kGreenfield}},
               at("2027-02-20T10:00:00Z")),
        record("Contact", kGrace,
               {{"FirstName", "Grace"},
                {"LastName", "Hopper"},
                {"Email", "grace@example.org"},
                {"Donor_Level__c", "Bronze"},
                {"Lifetime_Giving__c", 250},
                {"Donor_Since__c", "2026-12-15"},
                {"Skills__c", "Navy;Math"},
                {"Description", "Admiral"}},
               at("2026-12-15T08:30:00Z")),
        record("Contact", kPat,
               {{"FirstName", "Pat"},
                {"LastName", "O'Brien"},
                {"Email", "pat_obrien@example.org"},
                {"Lifetime_Giving__c", 0},
                {"Donor_Since__c", "2027-03-05"},
                {"MailingCity", "100% Town"}},
               at("2027-03-01T08:59:59Z")),
        record("cpm__Installment__c", kInst1,
               {{"Name", "INST-1"},
                {"cpm__GUID__c", kInst1Guid},
                {"cpm__Contact__c", kAda},
                {"cpm__Amount__c", 10},
                {"cpm__Due_Date__c", "2027-03-01"},
                {"cpm__Status__c", "Outstanding"}},
               at("2027-03-01T09:00:00Z")),
        record("cpm__Installment__c", kInst2,
               {{"Name", "INST-2"},
                {"cpm__Contact__c", kJane},
                {"cpm__Amount__c", 25.5},
                {"cpm__Due_Date__c", "2027-04-01"},
                {"cpm__Status__c", "Collected"}},
               at("2027-03-01T09:00:00Z")),
        record("cpm__Installment__c", kInst3,
               {{"Name", "INST-3"},
                {"cpm__Amount__c", 5},
                {"cpm__Due_Date__c", "2027-02-01"},
                {"cpm__Status__c", "Failed"}},
               at("2027-03-01T09:00:00Z")),
        record("cpm__Payment__c", kPayment,
               {{"Name", "PAY-1"}, {"cpm__Installment__c", kInst1}, {"cpm__Amount__c", 10}},
               at("2027-03-01T09:00:00Z")),
    };
    records[3].guid = kInst1Guid;
    add(records);
  }

  Org& org() { return *test.org; }

  void add(const std::vector<Record>& records) {
    auto done = org().records().write<Ok>([&](Transaction& tx) -> Status {
      for (const auto& r : records) tx.put(r);
      return ok_status();
    });
    REQUIRE(done.ok());
  }

  soql::SoqlResult<soql::QueryPage> query(const std::string& soql,
                                          soql::QueryOptions options = {}) {
    return soql::run_query(org(), soql, options);
  }
};

}  // namespace fake_org::testing
