// The SOQL subset as a table: each accepted query with the answer it gives
// on the test org, each refused one with the platform's error code, the
// position it points at and its message.
#include <catch2/catch.hpp>

#include "soql_parser.h"
#include "testing/soql_records.h"

using namespace fake_org;
using namespace fake_org::testing;

namespace {

// The first selected value of a record (descending into a parent; a child
// subquery's records as the first value of each, joined by '|').
std::string first_value(const nlohmann::ordered_json& record) {
  for (auto it = record.begin(); it != record.end(); ++it) {
    if (it.key() == "attributes") continue;
    const auto& v = it.value();
    if (v.is_object() && v.contains("records")) {
      std::string out;
      for (const auto& child : v["records"]) out += (out.empty() ? "" : "|") + first_value(child);
      return out;
    }
    if (v.is_object()) return first_value(v);
    if (v.is_null()) return "null";
    return v.is_string() ? v.get<std::string>() : v.dump();
  }
  return "";
}

// "count=N" for COUNT(), else the first selected value of each record.
std::string summary(const soql::QueryPage& page, const std::string& soql) {
  if (soql.find("COUNT()") != std::string::npos) return "count=" + std::to_string(page.total_size);
  std::string out;
  for (const auto& r : page.records) out += (out.empty() ? "" : ",") + first_value(r);
  return out;
}

struct Accepted {
  std::string soql;
  std::string expect;
};

struct Refused {
  std::string soql;
  const char* code;
  // Where the error points: the first occurrence of this text (null: the end).
  const char* at;
  const char* detail;  // a part of the message's last line
};

const std::string kJane15 = kJane.substr(0, 15);

std::vector<Accepted> accepted() {
  return {
      {"SELECT LastName FROM Contact ORDER BY LastName",
       "Doe,Hopper,Lovelace,O'Brien,Taylor,Taylor"},
      {"select lastname from contact order by lastname desc",
       "Taylor,Taylor,O'Brien,Lovelace,Hopper,Doe"},
      {"SELECT Id FROM Contact WHERE Email = 'ada@example.org'", kAda},
      {"SELECT LastName FROM Contact WHERE Email = 'ALEX.TAYLOR@EXAMPLE.COM' ORDER BY Id",
       "Taylor,Taylor"},
      {"SELECT LastName FROM Contact WHERE Id = '" + kJane15 + "'", "Doe"},
      {"SELECT LastName FROM Contact WHERE Id IN ('" + kGrace + "', '" + kAda +
           "') ORDER BY LastName",
       "Hopper,Lovelace"},
      {"SELECT LastName FROM Contact WHERE LastName LIKE 'lov%'", "Lovelace"},
      {"SELECT LastName FROM Contact WHERE LastName LIKE '_oe'", "Doe"},
      {"SELECT LastName FROM Contact WHERE Email LIKE 'pat\\_%'", "O'Brien"},
      {"SELECT LastName FROM Contact WHERE MailingCity LIKE '100\\% %'", "O'Brien"},
      {"SELECT LastName FROM Contact WHERE LastName = 'O\\'Brien'", "O'Brien"},
      {"SELECT LastName FROM Contact WHERE Lifetime_Giving__c > 100 ORDER BY Lifetime_Giving__c",
       "Hopper,Lovelace"},
      {"SELECT LastName FROM Contact WHERE Lifetime_Giving__c >= 0 AND Lifetime_Giving__c < 251 "
       "ORDER BY LastName",
       "Hopper,O'Brien"},
      {"SELECT LastName FROM Contact WHERE Lifetime_Giving__c = 1500.50", "Lovelace"},
      {"SELECT LastName FROM Contact WHERE Lifetime_Giving__c != null ORDER BY LastName",
       "Hopper,Lovelace,O'Brien"},
      {"SELECT LastName FROM Contact WHERE Lifetime_Giving__c = null ORDER BY LastName",
       "Doe,Taylor,Taylor"},
      {"SELECT LastName FROM Contact WHERE Donor_Level__c != 'Silver' ORDER BY LastName",
       "Hopper,Lovelace,O'Brien,Taylor,Taylor"},
      {"SELECT LastName FROM Contact WHERE Donor_Level__c IN ('gold', 'silver') ORDER BY LastName",
       "Doe,Lovelace"},
      {"SELECT LastName FROM Contact WHERE Donor_Level__c NOT IN ('Gold') ORDER BY LastName",
       "Doe,Hopper,O'Brien,Taylor,Taylor"},
      {"SELECT LastName FROM Contact WHERE Newsletter_Opt_In__c = TRUE", "Lovelace"},
      {"SELECT LastName FROM Contact WHERE Newsletter_Opt_In__c = false ORDER BY LastName",
       "Doe,Hopper,O'Brien,Taylor,Taylor"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c = 2027-02-27", "Lovelace"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c > 2027-01-01 ORDER BY LastName",
       "Lovelace,O'Brien"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c = LAST_N_DAYS:7", "Lovelace"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c = NEXT_N_DAYS:7", "O'Brien"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c = THIS_WEEK", "O'Brien"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c = LAST_WEEK", "Lovelace"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c = THIS_MONTH", "O'Brien"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c = LAST_MONTH", "Lovelace"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c = LAST_YEAR", "Hopper"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c < THIS_YEAR", "Hopper"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c > TODAY", "O'Brien"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c = YESTERDAY", ""},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c = LAST_N_MONTHS:3 ORDER BY LastName",
       "Hopper,Lovelace"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c = THIS_QUARTER ORDER BY LastName",
       "Lovelace,O'Brien"},
      {"SELECT LastName FROM Contact WHERE Donor_Since__c = N_DAYS_AGO:2", "Lovelace"},
      {"SELECT LastName FROM Contact WHERE CreatedDate < 2027-03-01T00:00:00Z ORDER BY CreatedDate",
       "Hopper,Lovelace"},
      {"SELECT LastName FROM Contact WHERE CreatedDate = LAST_N_DAYS:10 ORDER BY LastName",
       "Doe,Lovelace,O'Brien,Taylor,Taylor"},
      {"SELECT LastName FROM Contact WHERE CreatedDate > 2027-03-01T08:59:59Z ORDER BY LastName",
       "Doe,Taylor,Taylor"},
      {"SELECT LastName FROM Contact WHERE CreatedDate >= 2027-03-01T09:59:59+01:00 "
       "ORDER BY LastName",
       "Doe,O'Brien,Taylor,Taylor"},
      {"SELECT LastName FROM Contact WHERE Skills__c INCLUDES ('math') ORDER BY LastName",
       "Hopper,Lovelace"},
      {"SELECT LastName FROM Contact WHERE Skills__c INCLUDES ('Poetry;Math', 'Chess')",
       "Lovelace"},
      {"SELECT LastName FROM Contact WHERE Skills__c EXCLUDES ('Navy') ORDER BY LastName",
       "Doe,Lovelace,O'Brien,Taylor,Taylor"},
      {"SELECT LastName FROM Contact WHERE Skills__c = 'Poetry;Math'", "Lovelace"},
      {"SELECT LastName FROM Contact WHERE FirstName = 'Alex' AND MailingCity = 'London'",
       "Taylor"},
      {"SELECT LastName FROM Contact WHERE FirstName = 'Jane' OR FirstName = 'Grace' "
       "ORDER BY LastName",
       "Doe,Hopper"},
      {"SELECT LastName FROM Contact WHERE (FirstName = 'Alex' OR FirstName = 'Ada') AND "
       "Email LIKE '%.com'",
       "Taylor,Taylor"},
      {"SELECT LastName FROM Contact WHERE NOT LastName = 'Taylor' ORDER BY LastName",
       "Doe,Hopper,Lovelace,O'Brien"},
      {"SELECT LastName FROM Contact WHERE NOT (LastName = 'Taylor' OR LastName = 'Doe') "
       "ORDER BY LastName",
       "Hopper,Lovelace,O'Brien"},
      {"SELECT Account.Name FROM Contact WHERE Account.Name LIKE 'green%' ORDER BY LastName",
       "Greenfield Community Trust,Greenfield Community Trust"},
      {"SELECT LastName FROM Contact WHERE AccountId = null ORDER BY LastName",
       "Hopper,O'Brien,Taylor,Taylor"},
      {"SELECT LastName FROM Contact WHERE AccountId = '" + kGreenfield + "' ORDER BY LastName",
       "Doe,Lovelace"},
      {"SELECT LastName FROM Contact ORDER BY MailingCity NULLS LAST, LastName",
       "O'Brien,Doe,Taylor,Hopper,Lovelace,Taylor"},
      {"SELECT LastName FROM Contact ORDER BY MailingCity DESC, LastName",
       "Taylor,Doe,O'Brien,Hopper,Lovelace,Taylor"},
      {"SELECT LastName FROM Contact ORDER BY MailingCity, LastName",
       "Hopper,Lovelace,Taylor,O'Brien,Doe,Taylor"},
      {"SELECT LastName FROM Contact ORDER BY MailingCity DESC NULLS FIRST, LastName ASC",
       "Hopper,Lovelace,Taylor,Taylor,Doe,O'Brien"},
      {"SELECT LastName FROM Contact ORDER BY LastName LIMIT 2", "Doe,Hopper"},
      {"SELECT LastName FROM Contact ORDER BY LastName LIMIT 2 OFFSET 2", "Lovelace,O'Brien"},
      {"SELECT LastName FROM Contact ORDER BY LastName OFFSET 5", "Taylor"},
      {"SELECT LastName FROM Contact LIMIT 0", ""},
      {"SELECT COUNT() FROM Contact", "count=6"},
      {"SELECT COUNT() FROM Contact WHERE FirstName = 'Alex'", "count=2"},
      {"SELECT COUNT() FROM Contact LIMIT 4", "count=4"},
      {"SELECT Name FROM Contact WHERE Id = '" + kAda + "'", "Ada Lovelace"},
      {"SELECT c.LastName FROM Contact c WHERE c.FirstName = 'Grace'", "Hopper"},
      {"SELECT Name FROM Campaign WHERE IsActive = true AND StartDate <= TODAY "
       "ORDER BY StartDate DESC",
       "Spring Appeal 2027,Year-End Giving 2026"},
      {"SELECT Name FROM Campaign WHERE EndDate = null", "Summer Gala 2025"},
      {"SELECT Name FROM Campaign WHERE Type IN ('Email', 'Direct Mail') ORDER BY Name",
       "Spring Appeal 2027,Year-End Giving 2026"},
      {"SELECT cpm__Contact__r.LastName FROM cpm__Installment__c ORDER BY cpm__Due_Date__c",
       "null,Lovelace,Doe"},
      {"SELECT Name FROM cpm__Installment__c WHERE cpm__Contact__r.Email = 'jane.doe@example.org'",
       "INST-2"},
      {"SELECT Name FROM cpm__Installment__c WHERE cpm__Contact__c = '" + kAda + "'", "INST-1"},
      {"SELECT cpm__Installment__r.cpm__Contact__r.FirstName FROM cpm__Payment__c", "Ada"},
      {"SELECT Name FROM cpm__Installment__c WHERE cpm__Amount__c > 5.5 AND "
       "cpm__Status__c != 'Failed' ORDER BY cpm__Amount__c DESC",
       "INST-2,INST-1"},
      {"SELECT Name FROM cpm__Installment__c WHERE cpm__Amount__c > -1 AND cpm__Amount__c < +6",
       "INST-3"},
      {"SELECT Name FROM cpm__Installment__c WHERE cpm__GUID__c = '" + kInst1Guid + "'", "INST-1"},
      {"SELECT Name FROM CPM__INSTALLMENT__C WHERE CPM__DUE_DATE__C = THIS_MONTH", "INST-1"},
      {"SELECT Id FROM Contact WHERE Email = 'nobody@example.org'", ""},
      {"SELECT LastName FROM Contact WHERE IsDeleted = false AND FirstName = 'Pat'", "O'Brien"},
      {"SELECT LastName FROM Contact WHERE LastName <> 'Taylor' AND LastName > 'h' "
       "ORDER BY LastName",
       "Hopper,Lovelace,O'Brien"},
      {"SELECT LastName\nFROM Contact\nWHERE FirstName = 'Jane'", "Doe"},
      {"SELECT LastName FROM Contact WHERE Email IN ('grace@example.org', "
       "'jane.doe@example.org') ORDER BY LastName",
       "Doe,Hopper"},
      {"SELECT LastName FROM Contact WHERE Email = ''", ""},
      {"SELECT LastName FROM Contact WHERE MailingCity = '' AND FirstName = 'Grace'", "Hopper"},
      {"SELECT FIELDS(STANDARD) FROM Contact WHERE Id = '" + kAda + "'", kAda},
      {"SELECT FIELDS(ALL) FROM Contact WHERE LastName = 'Doe' LIMIT 200", kJane},
      {"SELECT LastName FROM Contact WHERE Donor_Level__c != null ORDER BY Donor_Level__c",
       "Hopper,Doe,Lovelace"},
      {"SELECT LastName FROM Contact WHERE Donor_Level__c != null "
       "ORDER BY Donor_Level__c DESC",
       "Lovelace,Doe,Hopper"},
      {"SELECT Skills__c FROM Contact WHERE Id = '" + kGrace + "'", "Math;Navy"},
      {"SELECT COUNT(Id) FROM Contact", "6"},
      {"SELECT COUNT(Lifetime_Giving__c) FROM Contact", "3"},
      {"SELECT SUM(Lifetime_Giving__c) FROM Contact", "1750.5"},
      {"SELECT AVG(Lifetime_Giving__c) FROM Contact", "583.5"},
      {"SELECT MIN(LastName), MAX(LastName) FROM Contact", "Doe"},
      {"SELECT MAX(LastName) FROM Contact", "Taylor"},
      {"SELECT MAX(Donor_Since__c) FROM Contact", "2027-03-05"},
      {"SELECT COUNT_DISTINCT(LastName) FROM Contact", "5"},
      {"SELECT COUNT(Id) FROM Contact WHERE LastName = 'Nobody'", "0"},
      {"SELECT SUM(Lifetime_Giving__c) FROM Contact WHERE LastName = 'Nobody'", "null"},
      {"SELECT LastName FROM Contact GROUP BY LastName", "Doe,Hopper,Lovelace,O'Brien,Taylor"},
      {"SELECT LastName, COUNT(Id) FROM Contact GROUP BY LastName HAVING COUNT(Id) > 1", "Taylor"},
      {"SELECT COUNT(Id) n, LastName FROM Contact GROUP BY LastName "
       "ORDER BY COUNT(Id) DESC, LastName LIMIT 2",
       "2,1"},
      {"SELECT LastName FROM Contact GROUP BY LastName HAVING LastName LIKE '%o%' "
       "ORDER BY LastName DESC OFFSET 1",
       "O'Brien,Lovelace,Hopper,Doe"},
      {"SELECT Account.Name, COUNT(Id) FROM Contact WHERE AccountId != null GROUP BY Account.Name",
       "Greenfield Community Trust"},
      {"SELECT Newsletter_Opt_In__c, COUNT(Id) FROM Contact GROUP BY Newsletter_Opt_In__c",
       "false,true"},
      {"SELECT LastName FROM Contact GROUP BY LastName HAVING MAX(Lifetime_Giving__c) >= 250 "
       "AND COUNT(Id) = 1",
       "Hopper,Lovelace"},
      {"SELECT LastName FROM Contact WHERE Id IN (SELECT cpm__Contact__c FROM cpm__Installment__c) "
       "ORDER BY LastName",
       "Doe,Lovelace"},
      {"SELECT LastName FROM Contact WHERE Id IN (SELECT cpm__Contact__c FROM cpm__Installment__c "
       "WHERE cpm__Amount__c > 20)",
       "Doe"},
      {"SELECT LastName FROM Contact WHERE Id NOT IN (SELECT cpm__Contact__c FROM "
       "cpm__Installment__c) ORDER BY LastName",
       "Hopper,O'Brien,Taylor,Taylor"},
      {"SELECT Name FROM Account WHERE Id IN (SELECT AccountId FROM Contact c WHERE "
       "c.LastName = 'Doe')",
       "Greenfield Community Trust"},
      {"SELECT Name FROM cpm__Installment__c WHERE cpm__Contact__c IN (SELECT Id FROM Contact "
       "WHERE Email LIKE '%example.org') AND cpm__Amount__c < 20",
       "INST-1"},
      {"SELECT LastName FROM Contact WHERE FirstName = 'Jane' OR Id IN (SELECT cpm__Contact__c "
       "FROM cpm__Installment__c WHERE Name = 'INST-1') ORDER BY LastName",
       "Doe,Lovelace"},
      {"SELECT Name FROM cpm__Installment__c WHERE cpm__Contact__c IN (SELECT Id FROM Contact "
       "WHERE LastName = 'Nobody')",
       ""},
      // Parent-to-child subqueries: the children nested in each parent.
      {"SELECT (SELECT LastName FROM Contacts ORDER BY LastName) FROM Account", "Doe|Lovelace"},
      {"SELECT (SELECT LastName FROM Contacts WHERE FirstName = 'Ada'), Name FROM Account",
       "Lovelace"},
      {"SELECT (SELECT LastName FROM Contacts ORDER BY LastName DESC LIMIT 1) FROM Account",
       "Lovelace"},
      {"SELECT (SELECT LastName FROM Contacts WHERE LastName = 'Nobody') FROM Account", "null"},
      {"SELECT (SELECT Name FROM cpm__Installments__r) FROM Contact ORDER BY LastName, FirstName",
       "INST-2,null,INST-1,null,null,null"},
      {"SELECT (SELECT (SELECT Name FROM cpm__Installments__r), LastName FROM Contacts "
       "ORDER BY LastName) FROM Account",
       "INST-2|INST-1"},
      {"SELECT (SELECT LastName FROM Account.Contacts WHERE LastName = 'Doe') FROM Account", "Doe"},
      {"SELECT (SELECT c.LastName FROM a.Contacts c WHERE c.FirstName = 'Jane') FROM Account a",
       "Doe"},
      {"select (select lastname from contacts where lastname = 'doe') from account", "Doe"},
      {"SELECT (SELECT cpm__Installment__r.Name FROM cpm__Payments__r) FROM cpm__Installment__c "
       "ORDER BY Name",
       "INST-1,null,null"},
      {"SELECT (SELECT LastName FROM Contacts WHERE Id IN (SELECT cpm__Contact__c FROM "
       "cpm__Installment__c WHERE cpm__Amount__c > 20)) FROM Account",
       "Doe"},
      {"SELECT (SELECT Id FROM ChildAccounts), Name FROM Account", "null"},
      // toLabel(): the picklist's label (the catalogue's labels are its values).
      {"SELECT toLabel(Donor_Level__c) FROM Contact WHERE Id = '" + kAda + "'", "Gold"},
      {"SELECT toLabel(Donor_Level__c) level, Donor_Level__c FROM Contact WHERE Id = '" + kAda +
           "'",
       "Gold"},
      {"SELECT toLabel(Account.Type) FROM Contact WHERE Id = '" + kAda + "'", "null"},
      {"SELECT Name, (SELECT LastName FROM Contacts) FROM Account WHERE Id IN (SELECT AccountId "
       "FROM Contact)",
       "Greenfield Community Trust"},
  };
}

std::vector<Refused> refused() {
  using namespace soql::soql_code;
  std::string deep = "SELECT Id FROM Contact WHERE " + std::string(60, '(') + "LastName = 'x'" +
                     std::string(60, ')');
  return {
      {"SELECT Id FROMM Contact", kMalformedQuery, "FROMM", "unexpected token: 'FROMM'"},
      {"SELECT Id, Emali FROM Contact", kInvalidField, "Emali",
       "No such column 'Emali' on entity 'Contact'."},
      {"SELECT Id FROM Contactt", kInvalidType, "Contactt",
       "sObject type 'Contactt' is not supported."},
      {"SELECT Id FROM Contact WHERE Email = :email", kMalformedQuery, ":email",
       "Bind variables only allowed in Apex code"},
      {"SELECT Id FROM Contact WHERE Id IN :ids", kMalformedQuery, ":ids",
       "Bind variables only allowed in Apex code"},
      {"SELECT * FROM Contact", kMalformedQuery, "*", "unexpected token: '*'"},
      {"SELECT Id FROM Contact WHERE FirstName = 'A' AND LastName = 'B' OR Email = 'c'",
       kMalformedQuery, "OR", "unexpected token: 'OR'"},
      {"SELECT Id FROM Contact WHERE FirstName = 'A' OR LastName = 'B' AND Email = 'c'",
       kMalformedQuery, "AND", "unexpected token: 'AND'"},
      {"SELECT Id FROM Contact WHERE LastName = 5", kInvalidFilter, "5",
       "value of filter criterion for field 'LastName' must be of type string and should be "
       "enclosed in quotes"},
      {"SELECT Id FROM Contact WHERE Lifetime_Giving__c = '5'", kInvalidFilter, "'5'",
       "must be of type double and should not be enclosed in quotes"},
      {"SELECT Id FROM Contact WHERE Donor_Since__c = '2027-01-01'", kInvalidFilter, "'2027",
       "must be of type date and should not be enclosed in quotes"},
      {"SELECT Id FROM Contact WHERE Donor_Since__c = 2027-03-01T10:00:00Z", kInvalidFilter, "2027",
       "must be of type date and"},
      {"SELECT Id FROM Contact WHERE CreatedDate > 2027-01-01", kInvalidFilter, "2027",
       "must be of type dateTime and should not be enclosed in quotes"},
      {"SELECT Id FROM Contact WHERE Newsletter_Opt_In__c = 'true'", kInvalidFilter, "'true'",
       "must be of type boolean"},
      {"SELECT Id FROM Contact WHERE Id = 'abc'", kInvalidFilter, "'abc'", "invalid ID field: abc"},
      {"SELECT Id FROM Contact WHERE AccountId = 42", kInvalidFilter, "42",
       "must be of type id and should be enclosed in quotes"},
      {"SELECT Id FROM Contact WHERE Email LIKE 5", kInvalidFilter, "5", "must be of type string"},
      {"SELECT Id FROM Contact GROUP BY LastName", kMalformedQuery, "Id",
       "Field must be grouped or aggregated: Id"},
      {"SELECT LastName, COUNT(Id) FROM Contact", kMalformedQuery, "LastName",
       "Field must be grouped or aggregated: LastName"},
      {"SELECT SUM(LastName) FROM Contact", kInvalidField, "LastName",
       "field LastName does not support aggregate operator SUM"},
      {"SELECT MAX(Newsletter_Opt_In__c) FROM Contact", kInvalidField, "Newsletter",
       "does not support aggregate operator MAX"},
      {"SELECT COUNT(Id) FROM Contact GROUP BY Lifetime_Giving__c", kInvalidField,
       "Lifetime_Giving__c", "field 'Lifetime_Giving__c' can not be grouped in a query call"},
      {"SELECT LastName n FROM Contact", kMalformedQuery, "n FROM",
       "Only aggregate expressions use field aliasing"},
      {"SELECT COUNT(Id) c, LastName c FROM Contact GROUP BY LastName", kMalformedQuery, "c FROM",
       "duplicate alias: c"},
      {"SELECT Id FROM Contact HAVING COUNT(Id) > 1", kMalformedQuery, "HAVING",
       "unexpected token: 'HAVING'"},
      {"SELECT COUNT() FROM Contact GROUP BY LastName", kMalformedQuery, "GROUP",
       "GROUP BY with COUNT()"},
      {"SELECT LastName FROM Contact GROUP BY ROLLUP(LastName)", kMalformedQuery, "ROLLUP",
       "GROUP BY ROLLUP"},
      {"SELECT LastName FROM Contact ORDER BY COUNT(Id)", kMalformedQuery, "Id)",
       "Ordered field must be grouped or aggregated: Id"},
      {"SELECT LastName FROM Contact GROUP BY LastName HAVING Email = 'x'", kMalformedQuery,
       "Email", "Field must be grouped or aggregated: Email"},
      {"SELECT LastName FROM Contact GROUP BY LastName HAVING COUNT(Id) > 'x'", kInvalidFilter,
       "'x'", "must be of type double"},
      {"SELECT AVG() FROM Contact", kMalformedQuery, ")", "AVG() takes a field"},
      {"SELECT COUNT(Id) FROM Contact WHERE COUNT(Id) > 1", kMalformedQuery, "COUNT(Id) >",
       "COUNT() in WHERE"},
      {"SELECT Id, (SELECT Id FROM Contactz) FROM Account", kInvalidType, "Contactz",
       "Didn't understand relationship 'Contactz' in FROM part of query call. If you are "
       "attempting to use a custom relationship, be sure to append the '__r' after the custom "
       "relationship name."},
      {"SELECT Id, (SELECT Id FROM Contact) FROM Account", kInvalidType, "Contact)",
       "Didn't understand relationship 'Contact' in FROM part of query call."},
      {"SELECT Id, (SELECT Id FROM Contacts) FROM Contact", kInvalidType, "Contacts",
       "Didn't understand relationship 'Contacts'"},
      {"SELECT Id, (SELECT Id FROM Campaign.Contacts) FROM Account", kInvalidType, "Campaign",
       "Didn't understand relationship 'Campaign.Contacts'"},
      {"SELECT Id, (SELECT Nope FROM Contacts) FROM Account", kInvalidField, "Nope",
       "No such column 'Nope' on entity 'Contact'."},
      {"SELECT Id, (SELECT COUNT(Id) FROM Contacts) FROM Account", kMalformedQuery, "COUNT",
       "Only root queries support aggregate expressions"},
      {"SELECT Id, (SELECT COUNT() FROM Contacts) FROM Account", kMalformedQuery, "COUNT",
       "Only root queries support aggregate expressions"},
      {"SELECT Id, (SELECT LastName FROM Contacts GROUP BY LastName) FROM Account", kMalformedQuery,
       "GROUP", "GROUP BY in a child relationship subquery"},
      {"SELECT Id, (SELECT LastName FROM Contacts LIMIT 5 OFFSET 1) FROM Account", kMalformedQuery,
       "OFFSET", "OFFSET in a child relationship subquery"},
      {"SELECT Id, (SELECT Id FROM Contacts), (SELECT Id FROM contacts) FROM Account",
       kMalformedQuery, "contacts)", "duplicate field selected: Contacts"},
      {"SELECT Name, COUNT(Id), (SELECT Id FROM Contacts) FROM Account GROUP BY Name",
       kMalformedQuery, "(SELECT", "cannot be used in an aggregate query"},
      {"SELECT COUNT(), (SELECT Id FROM Contacts) FROM Account", kMalformedQuery, "(SELECT",
       "subquery beside COUNT()"},
      {"SELECT Id, (SELECT Id FROM Contacts FROM Account", kMalformedQuery, "FROM Account",
       "unexpected token: 'FROM'"},
      {"SELECT Id, (Id) FROM Account", kMalformedQuery, "Id)", "unexpected token: 'Id'"},
      {"SELECT toLabel(LastName) FROM Contact", kInvalidField, "LastName",
       "toLabel() takes a picklist or multi-select picklist field, not 'LastName'"},
      {"SELECT Donor_Level__c, toLabel(Donor_Level__c) FROM Contact", kMalformedQuery, "toLabel",
       "duplicate field selected: Donor_Level__c"},
      {"SELECT toLabel(LeadSource), COUNT(Id) FROM Contact GROUP BY LeadSource", kMalformedQuery,
       "toLabel", "toLabel() cannot be used in an aggregate query"},
      {"SELECT toLabel(LeadSource FROM Contact", kMalformedQuery, "FROM",
       "unexpected token: 'FROM'"},
      {"SELECT Id, (SELECT Id, (SELECT Id, (SELECT Id, (SELECT Id, ( SELECT Id FROM Contacts) "
       "FROM Contacts) FROM Contacts) FROM Contacts) FROM Contacts) FROM Account",
       kMalformedQuery, "( SELECT",
       "SOQL statements cannot query aggregate relationships more than 4 levels away from the "
       "root entity object."},
      {"SELECT FIELDS(ALL) FROM Contact", kMalformedQuery, "FIELDS",
       "The SOQL FIELDS function must have a LIMIT of at most 200"},
      {"SELECT FIELDS(CUSTOM) FROM Contact LIMIT 201", kMalformedQuery, "FIELDS",
       "The SOQL FIELDS function must have a LIMIT of at most 200"},
      {"SELECT FIELDS(SOME) FROM Contact", kMalformedQuery, "SOME", "unexpected token: 'SOME'"},
      {"SELECT Id, FIELDS(STANDARD) FROM Contact", kMalformedQuery, "FIELDS",
       "duplicate field selected: Id"},
      {"SELECT LastName, FIELDS(ALL) FROM Contact GROUP BY LastName LIMIT 5", kMalformedQuery,
       "FIELDS", "FIELDS() cannot be used in an aggregate query"},
      {"SELECT COUNT(), FIELDS(ALL) FROM Contact", kMalformedQuery, "FIELDS",
       "FIELDS() beside COUNT()"},
      {"SELECT Id FROM Contact WHERE Id IN (SELECT LastName FROM Contact)", kMalformedQuery,
       "LastName", "semi join sub selects can only query id fields, cannot use: 'LastName'"},
      {"SELECT Id FROM Contact WHERE Id IN (SELECT Account.Id FROM Contact)", kMalformedQuery,
       "Account.Id", "semi join sub selects can only query id fields"},
      {"SELECT Id FROM Contact WHERE LastName IN (SELECT LastName FROM Contact)", kInvalidField,
       "LastName IN", "only supported on id or reference fields, cannot use: 'LastName'"},
      {"SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Contact WHERE Id IN "
       "(SELECT cpm__Contact__c FROM cpm__Installment__c))",
       kMalformedQuery, "SELECT cpm__Contact__c", "Nesting of semi join sub-selects"},
      {"SELECT Id FROM Contact WHERE Id IN (SELECT Id FROM Contact ORDER BY Id)", kMalformedQuery,
       "ORDER", "unexpected token: 'ORDER'"},
      {"SELECT Id FROM Contact WHERE Id IN (SELECT Id, AccountId FROM Contact)", kMalformedQuery,
       ", AccountId", "unexpected token: ','"},
      {"SELECT Id FROM Contact WHERE Id IN (SELECT Id FROM Contactz)", kInvalidType, "Contactz",
       "sObject type 'Contactz' is not supported."},
      {"SELECT Id FROM Contact WHERE Id IN (SELECT Id FROM Contact WHERE Nope__c = 1)",
       kInvalidField, "Nope__c", "No such column 'Nope__c' on entity 'Contact'."},
      {"SELECT Id FROM Contact WHERE Id INCLUDES (SELECT Id FROM Contact)", kMalformedQuery,
       "SELECT Id FROM Contact)", "unexpected token: 'SELECT'"},
      {"SELECT TYPEOF What WHEN Account THEN Name END FROM Event", kMalformedQuery, "TYPEOF",
       "TYPEOF"},
      {"SELECT Id FROM Contact WHERE LastName = 'Doe", kMalformedQuery, "'Doe",
       "unterminated string literal"},
      {"SELECT Id FROM Contact WHERE LastName = 'D\\qe'", kMalformedQuery, "'D",
       "Illegal character sequence '\\q' in string literal."},
      {"SELECT Id FROM Contact WHERE Donor_Since__c = 2027-02-30", kMalformedQuery, "2027",
       "invalid date: 2027-02-30"},
      {"SELECT Id FROM Contact WHERE Donor_Since__c = THIS_FISCAL_YEAR", kMalformedQuery,
       "THIS_FISCAL_YEAR", "fiscal date literal"},
      {"SELECT Id FROM Contact WHERE Donor_Since__c = LAST_N_DAYS", kMalformedQuery, "LAST_N_DAYS",
       "LAST_N_DAYS takes a number"},
      {"SELECT Id FROM Contact WHERE Donor_Since__c = LAST_N_DAYS:1.5", kMalformedQuery, "1.5",
       "takes a whole number"},
      {"SELECT Id FROM Contact WHERE Donor_Since__c = NEXT_CENTURY", kMalformedQuery,
       "NEXT_CENTURY", "unexpected token: 'NEXT_CENTURY'"},
      {"SELECT Id FROM Contact LIMIT -1", kMalformedQuery, "-", "unexpected token: '-'"},
      {"SELECT Id FROM Contact LIMIT 1.5", kMalformedQuery, "1.5", "unexpected token: '1.5'"},
      {"SELECT Id FROM Contact OFFSET 2001", kOutOfRange, "2001",
       "Maximum SOQL offset allowed is 2000"},
      {"SELECT Id FROM Contact OFFSET 5 LIMIT 2", kMalformedQuery, "LIMIT",
       "unexpected token: 'LIMIT'"},
      {"SELECT Id FROM Contact WHERE", kMalformedQuery, nullptr, "unexpected token: <EOF>"},
      {"SELECT Id FROM Contact WHERE LastName = 'x' AND", kMalformedQuery, nullptr,
       "unexpected token: <EOF>"},
      {"", kMalformedQuery, nullptr, "unexpected token: <EOF>"},
      {"SELECT Id FROM Contact ORDER LastName", kMalformedQuery, "LastName",
       "unexpected token: 'LastName'"},
      {"SELECT Id FROM Contact ORDER BY LastName NULLS MIDDLE", kMalformedQuery, "MIDDLE",
       "unexpected token: 'MIDDLE'"},
      {"SELECT Id, LastName, id FROM Contact", kMalformedQuery, "id ",
       "duplicate field selected: id"},
      {"SELECT cpm__Contact__c.LastName FROM cpm__Installment__c", kInvalidField, "cpm__Contact__c",
       "Didn't understand relationship 'cpm__Contact__c' in field path."},
      {"SELECT Id FROM Contact WHERE Acount.Name = 'x'", kInvalidField, "Acount",
       "Didn't understand relationship 'Acount' in field path."},
      {"SELECT cpm__Contact__r.Emali FROM cpm__Installment__c", kInvalidField, "Emali",
       "No such column 'Emali' on entity 'Contact'."},
      {"SELECT Account.Nmae FROM Contact", kInvalidField, "Nmae",
       "No such column 'Nmae' on entity 'Account'."},
      {"SELECT Account FROM Contact", kInvalidField, "Account",
       "No such column 'Account' on entity 'Contact'."},
      {"SELECT Id FROM Contact WHERE Description = 'x'", kInvalidField, "Description",
       "field 'Description' can not be filtered in a query call"},
      {"SELECT Id FROM Contact ORDER BY Description", kInvalidField, "Description",
       "field 'Description' can not be sorted in a query call"},
      {"SELECT Id FROM Contact ORDER BY Skills__c", kInvalidField, "Skills__c",
       "field 'Skills__c' can not be sorted in a query call"},
      {"SELECT Id FROM Contact WHERE Lifetime_Giving__c LIKE '1%'", kInvalidFilter, "LIKE",
       "invalid operator on double field 'Lifetime_Giving__c'"},
      {"SELECT Id FROM Contact WHERE LastName INCLUDES ('Doe')", kInvalidFilter, "INCLUDES",
       "includes or excludes operator only valid on multipicklist field"},
      {"SELECT Id FROM Contact WHERE Newsletter_Opt_In__c > false", kInvalidFilter, ">",
       "invalid operator on boolean field"},
      {"SELECT Id FROM Contact WHERE Skills__c > 'a'", kInvalidFilter, ">",
       "invalid operator on multipicklist field"},
      {"SELECT Id FROM Contact WHERE Lifetime_Giving__c > null", kInvalidFilter, "null",
       "null can only be compared with =, !=, IN or NOT IN"},
      {"SELECT COUNT() FROM Contact ORDER BY LastName", kMalformedQuery, "LastName",
       "Ordered field must be grouped or aggregated: LastName"},
      {"SELECT Id, COUNT() FROM Contact", kMalformedQuery, "COUNT", "beside"},
      {"SELECT COUNT(), Id FROM Contact", kMalformedQuery, "Id ", "a field beside COUNT()"},
      {"SELECT Id FROM Contact WHERE CALENDAR_YEAR(CreatedDate) = 2027", kMalformedQuery,
       "CALENDAR_YEAR", "CALENDAR_YEAR() in WHERE"},
      {"SELECT Id FROM Contact ORDER BY toLabel(LeadSource)", kMalformedQuery, "toLabel",
       "TOLABEL() in ORDER BY"},
      {"SELECT Id FROM Contact WITH SECURITY_ENFORCED", kMalformedQuery, "WITH", "WITH"},
      {"SELECT Id FROM Contact FOR UPDATE", kMalformedQuery, "FOR", "FOR UPDATE"},
      {"SELECT Id FROM Contact USING SCOPE Mine", kMalformedQuery, "USING", "USING SCOPE"},
      {"SELECT Id FROM Contact ALL ROWS", kMalformedQuery, "ALL", "ALL ROWS"},
      {"UPDATE Contact SET LastName = 'x'", kMalformedQuery, "UPDATE",
       "unexpected token: 'UPDATE'"},
      {"SELECT Id FROM Contact WHERE LastName NOT LIKE 'D%'", kMalformedQuery, "NOT",
       "unexpected token: 'NOT'"},
      {"SELECT Id FROM Contact WHERE LastName == 'Doe'", kMalformedQuery, "= '",
       "unexpected token: '='"},
      {"SELECT Id FROM Contact WHERE LastName = \"Doe\"", kMalformedQuery, "\"",
       "unexpected token: '\"'"},
      {"SELECT Id FROM Contact WHERE LastName IN ()", kMalformedQuery, ")",
       "unexpected token: ')'"},
      {"SELECT Id FROM Contact WHERE LastName = 'x' ORDER BY LastName LIMIT 5 OFFSET 1 extra",
       kMalformedQuery, "extra", "unexpected token: 'extra'"},
      {"SELECT Id FROM Contact WHERE LastName = 'x' LIMIT 1234567890", kOutOfRange, "1234567890",
       "number too large"},
      {"SELECT a.b.c.d.e.f.g FROM Contact", kMalformedQuery, "g FROM",
       "more than 5 levels away from the root entity"},
      {"SELECT Id FROM Contact WHERE LastName = 'x' AND (FirstName = 'y'", kMalformedQuery, nullptr,
       "unexpected token: <EOF>"},
      {"SELECT Id, FROM Contact", kMalformedQuery, "FROM", "unexpected token: 'FROM'"},
      {"SELECT Id FROM Contact WHERE 5 = LastName", kMalformedQuery, "5", "unexpected token: '5'"},
      {"SELECT Id FROM Contact WHERE LastName = Doe", kMalformedQuery, "Doe",
       "unexpected token: 'Doe'"},
      {deep, kMalformedQuery, nullptr, "conditions nested more than 50 levels deep"},
  };
}

}  // namespace

TEST_CASE("accepted SOQL queries answer as the platform does", "[soql]") {
  SoqlOrg org;
  const auto cases = accepted();
  for (const auto& c : cases) {
    INFO(c.soql);
    auto page = org.query(c.soql);
    if (!page.ok()) INFO(page.error().message);
    REQUIRE(page.ok());
    CHECK(summary(*page, c.soql) == c.expect);
    CHECK(page->done);
  }
  CHECK(cases.size() >= 60);
}

TEST_CASE("refused SOQL queries name the error code, position and part", "[soql]") {
  SoqlOrg org;
  const auto cases = refused();
  for (const auto& c : cases) {
    INFO(c.soql);
    auto page = org.query(c.soql);
    REQUIRE_FALSE(page.ok());
    const soql::SoqlError& e = page.error();
    INFO(e.message);
    CHECK(e.error_code == c.code);
    size_t expected = c.at ? c.soql.find(c.at) : c.soql.size();
    if (c.soql.rfind("SELECT Id FROM Contact WHERE ((", 0) == 0)
      expected = c.soql.find('(') + soql::kMaxConditionDepth;  // the first too deep
    REQUIRE(expected != std::string::npos);
    CHECK(e.position == expected);
    CHECK(e.row == 1);
    CHECK(e.column == static_cast<int>(expected) + 1);
    CHECK(e.detail.find(c.detail) != std::string::npos);
    CHECK(e.message.size() > e.detail.size());
    CHECK(e.message.compare(e.message.size() - e.detail.size(), e.detail.size(), e.detail) == 0);
  }
  CHECK(cases.size() >= 60);
}

TEST_CASE("a SOQL error message frames the query as the platform's does", "[soql]") {
  SoqlOrg org;
  auto r = org.query("SELECT Id, Emali FROM Contact");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message ==
        "\nSELECT Id, Emali FROM Contact\n           ^\nERROR at Row:1:Column:12\n"
        "No such column 'Emali' on entity 'Contact'. If you are attempting to use a custom "
        "field, be sure to append the '__c' after the custom field name. Please reference your "
        "WSDL or the describe call for the appropriate names.");

  // Rows and columns count lines as the platform does.
  r = org.query("SELECT Id\nFROM Contact\nWHERE Emali = 'x'");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().row == 3);
  CHECK(r.error().column == 7);
  CHECK(r.error().message.rfind("\nWHERE Emali = 'x'\n      ^\nERROR at Row:3:Column:7\n", 0) == 0);

  // A long line shows a window around the offending part, cut at words.
  std::string soql =
      "SELECT Id, FirstName, LastName, Email, MailingStreet, MailingCity, "
      "MailingPostalCode, Emali, MailingCountry, Phone, MobilePhone, HomePhone, "
      "Birthdate FROM Contact";
  r = org.query(soql);
  REQUIRE_FALSE(r.ok());
  INFO(json(r.error().message).dump());
  CHECK(
      r.error().message.rfind("\nMailingCity, MailingPostalCode, Emali, MailingCountry, Phone,\n" +
                                  std::string(32, ' ') + "^\nERROR at Row:1:Column:87\n",
                              0) == 0);

  // Past the platform's length limit nothing is parsed.
  r = org.query("SELECT Id FROM Contact WHERE LastName = '" + std::string(100000, 'x') + "'");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().error_code == "MALFORMED_QUERY");
  CHECK(r.error().message == "SOQL statements cannot be longer than 100,000 characters.");
  CHECK(r.error().position == soql::kNoPosition);
}

TEST_CASE("no SOQL text crashes or hangs the parser", "[soql]") {
  const std::string full =
      "SELECT Id, cpm__Contact__r.Account.Name, COUNT() FROM cpm__Installment__c i WHERE "
      "(NOT (i.cpm__Amount__c >= -1.5 OR Name LIKE 'a\\_%') AND cpm__Due_Date__c IN "
      "(2027-01-01, LAST_N_DAYS:3)) AND CreatedDate < 2027-01-01T00:00:00.5+01:00 ORDER BY "
      "Name DESC NULLS LAST LIMIT 5 OFFSET 2 'unterminated \\";
  // Every prefix, and every single-character corruption of it.
  for (size_t n = 0; n <= full.size(); ++n) {
    auto r = soql::parse_soql(full.substr(0, n));
    if (!r.ok()) CHECK(r.error().position <= n);
  }
  for (size_t i = 0; i < full.size(); ++i)
    for (char c : {'(', ')', '\'', '\\', ':', '-', '.', '\0', '\xff', ' '}) {
      std::string s = full;
      s[i] = c;
      auto r = soql::parse_soql(s);
      if (!r.ok()) CHECK(r.error().position <= s.size());
    }
  // Nesting past the cap is refused, not recursed into.
  auto deep = soql::parse_soql("SELECT Id FROM Contact WHERE " + std::string(100000 - 40, '('));
  REQUIRE_FALSE(deep.ok());
  CHECK(deep.error().detail == "conditions nested more than 50 levels deep");
  auto nots = soql::parse_soql("SELECT Id FROM Contact WHERE " + [] {
    std::string s;
    for (int i = 0; i < 10000; ++i) s += "NOT ";
    return s;
  }() + "LastName = 'x'");
  REQUIRE_FALSE(nots.ok());
}

TEST_CASE("a SOQL text run again is bound again: its date literals follow the clock", "[soql]") {
  SoqlOrg org;
  const std::string soql = "SELECT LastName FROM Contact WHERE Donor_Since__c > TODAY";
  soql::QueryOptions december, march;
  december.now = at("2026-12-01T12:00:00Z");
  march.now = at("2027-03-01T12:00:00Z");
  auto before = org.query(soql, december);
  auto after = org.query(soql, march);  // the parse kept from the first run
  auto again = org.query(soql, december);
  REQUIRE(before.ok());
  REQUIRE(after.ok());
  REQUIRE(again.ok());
  CHECK(summary(*before, soql).find("Hopper") != std::string::npos);
  CHECK(summary(*after, soql) == "O'Brien");
  CHECK(summary(*again, soql) == summary(*before, soql));
  for (int i = 0; i < 2; ++i) CHECK_FALSE(org.query("SELECT FROM Contact").ok());
}

TEST_CASE("a SOQL text kept bound to one org's catalogue is bound again for another's", "[soql]") {
  SoqlOrg with_skills;  // its Contact has Skills__c
  DomainOrg without{default_config()};
  const std::string soql = "SELECT Skills__c FROM Contact WHERE LastName = 'Lovelace'";
  for (int i = 0; i < 2; ++i) {
    auto shown = with_skills.query(soql);
    REQUIRE(shown.ok());
    CHECK(shown->records.at(0)["Skills__c"] == "Math;Poetry");
    auto refused = soql::run_query(*without.org, soql, {});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().error_code == "INVALID_FIELD");
  }
}
