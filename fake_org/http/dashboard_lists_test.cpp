// What a person looks for first on the dashboard: record lists lead with the
// identifying and state fields (the fixture's list_fields, else the
// catalogue's), the overview with the newest payment intents, milliseconds
// rounded, times on one line, empty tables saying so, placeholders that fit.
#include <catch2/catch.hpp>

#include <regex>

#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

bool lists_has(const Response& r, const std::string& text) {
  return r.body.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("record lists show the name, status, amount and dates first",
          "[http][admin][dashboard]") {
  TestOrg t(fixture("default.yaml"));
  auto intent = t.create_intent(IntentBody::one_time().contact({{"LastName", "Lovelace"}}));
  auto contacts = t.get("/__admin/ui/records/Contact?q=Lovelace", false);
  INFO(contacts.body);
  CHECK(lists_has(contacts, "<tr><th>Id</th><th>LastName</th><th>FirstName</th><th>Email</th>"));
  CHECK(lists_has(contacts, "<td>Lovelace</td>"));
  auto installments = t.get("/__admin/ui/records/cpm__Installment__c", false);
  INFO(installments.body);
  CHECK(lists_has(installments,
                  "<tr><th>Id</th><th>Name</th><th>cpm__Status__c</th><th>cpm__Amount__c</th>"));
  CHECK(lists_has(installments, "<th>cpm__Due_Date__c</th>"));
  CHECK(lists_has(installments, "<td class=\"ts\">"));  // its dates on one line
  auto accounts = t.get("/__admin/ui/records/Account", false);
  CHECK(lists_has(accounts, "<tr><th>Id</th><th>Name</th>"));
  // An object without records: its columns still, and a row saying so.
  auto campaigns = t.get("/__admin/ui/records/Campaign?q=nothing-matches-this", false);
  INFO(campaigns.body);
  CHECK(lists_has(campaigns, "<tr><th>Id</th><th>Name</th><th>Status</th>"));
  CHECK(lists_has(campaigns, "<tr class=\"empty\"><td colspan=\"9\">no records</td></tr>"));
}

TEST_CASE("a fixture's list_fields choose a list's columns", "[http][admin][dashboard]") {
  TestOrg t(fixture_text(
      "extends: default.yaml\nobjects:\n  Contact:\n    list_fields: [Email, CreatedDate]\n"));
  REQUIRE(t.post("/__admin/records/Contact",
                 {{"LastName", "Chosen"}, {"Email", "chosen@example.org"}}, false)
              .status == 201);
  auto r = t.get("/__admin/ui/records/Contact?q=chosen", false);
  INFO(r.body);
  CHECK(lists_has(r, "<tr><th>Id</th><th>Email</th><th>CreatedDate</th></tr>"));
  CHECK(lists_has(r, "<td>chosen@example.org</td><td class=\"ts\">"));
}

TEST_CASE("the overview lists the newest payment intents with their status",
          "[http][admin][dashboard]") {
  TestOrg t(fixture("default.yaml"));
  auto none = t.get("/__admin/ui", false);
  CHECK(lists_has(none, "<td colspan=\"6\">no payment intents yet</td>"));
  std::vector<std::string> ids;
  for (int i = 0; i < 12; ++i)
    ids.push_back(t.create_intent(IntentBody::one_time().contact({{"LastName", "Recent"}})).id);
  auto r = t.get("/__admin/ui", false);
  INFO(r.body);
  const auto table = r.body.substr(r.body.find("<table id=\"recent-intents\">"));
  const auto rows = table.substr(0, table.find("</table>"));
  // The newest ten, newest first; the two oldest left out.
  CHECK(rows.find(ids[11]) < rows.find(ids[2]));
  CHECK(rows.find(ids[1]) == std::string::npos);
  CHECK(rows.find("<a href=\"/__admin/ui/intent?id=" + ids[11] + "\">") != std::string::npos);
  const json inst = t.admin_record(
      "cpm__Installment__c",
      t.create_intent(IntentBody::one_time().contact({{"LastName", "Status"}})).installment);
  auto again = t.get("/__admin/ui", false);
  CHECK(lists_has(again, "</a></td><td>" + inst["cpm__Status__c"].get<std::string>() + "</td>"));
}

TEST_CASE("milliseconds rounded, empty tables said, placeholders that fit",
          "[http][admin][dashboard]") {
  TestOrg t(fixture("default.yaml"));
  auto faults = t.get("/__admin/ui/faults", false);
  CHECK(lists_has(faults, "<td colspan=\"5\">no active faults</td>"));
  auto hooks = t.get("/__admin/ui/webhooks", false);
  CHECK(lists_has(hooks, "<td colspan=\"7\">no webhook events</td>"));
  auto psp = t.get("/__admin/ui/psp", false);
  CHECK(lists_has(psp, "no PSP sessions"));
  auto empty_journal = t.get("/__admin/ui/requests", false);
  CHECK(lists_has(empty_journal, "<td colspan=\"7\">no requests</td>"));

  t.create_intent(IntentBody::one_time().contact({{"LastName", "Timed"}}));
  auto journal = t.get("/__admin/ui/requests", false);
  INFO(journal.body);
  const std::regex ms(R"(<td class="num">([0-9]+(\.[0-9]+)?)</td><td>(<a|</td>))");
  size_t cells = 0;
  for (auto it = std::sregex_iterator(journal.body.begin(), journal.body.end(), ms);
       it != std::sregex_iterator(); ++it, ++cells) {
    const std::string fraction = (*it)[2];
    CHECK(fraction.size() <= 3);  // "0.15", "12.3", "250"; never "0.149423"
  }
  CHECK(cells > 0);
  CHECK(lists_has(journal, "<td class=\"ts\">2"));  // the org time on one line

  // Every input's placeholder fits the width it is given (20 characters
  // when no size is).
  const std::regex input(R"(<input[^>]*>)");
  const std::regex placeholder(R"(placeholder=(?:"([^"]*)\"|'([^']*)'))");
  const std::regex size(R"(size="([0-9]+)\")");
  for (const std::string page : {"", "/requests", "/faults", "/records/Contact", "/webhooks"}) {
    const std::string body = t.get("/__admin/ui" + page, false).body;
    for (auto it = std::sregex_iterator(body.begin(), body.end(), input);
         it != std::sregex_iterator(); ++it) {
      const std::string tag = it->str();
      std::smatch p, s;
      if (!std::regex_search(tag, p, placeholder)) continue;
      std::string text = p[1].matched ? p[1].str() : p[2].str();
      text = std::regex_replace(text, std::regex("&[a-z#0-9]+;"), "x");
      const size_t width = std::regex_search(tag, s, size) ? std::stoul(s[1]) : 20;
      INFO(page << ": " << tag);
      CHECK(text.size() <= width);
    }
  }
}
