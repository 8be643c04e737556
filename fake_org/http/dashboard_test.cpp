// The dashboard under /__admin/ui: each page answers HTML built from the
// org's state, escapes what it shows, and answers 400 or 404 (never 500) to
// bad input. The browser test (browser/dashboard.test.mjs) clicks through it.
#include <catch2/catch.hpp>

#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

bool dashboard_has(const Response& r, const std::string& text) {
  return r.body.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("the dashboard's overview shows the org, its clock and record counts",
          "[http][admin][dashboard]") {
  TestOrg t(fixture("default.yaml"));
  t.set_clock("2027-03-01T09:00:00Z");
  auto r = t.get("/__admin/ui", false);
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK(r.headers.find("Content-Type")->second == "text/html; charset=utf-8");
  CHECK(dashboard_has(r, "<h1>Local Fake Org</h1>"));
  CHECK(dashboard_has(r, "<td id=\"clock\">2027-03-01T09:0"));  // the clock runs on from there
  CHECK(dashboard_has(r, "<th>Environment</th><td>production</td>"));
  CHECK(dashboard_has(r,
                      "<a href=\"/__admin/ui/records/Contact\">Contact</a></td><td "
                      "class=\"num\">" +
                          std::to_string(t.count("Contact")) + "</td>"));
  // The buttons call the JSON admin API.
  CHECK(dashboard_has(r, "data-call=\"POST /__admin/clock\""));
  CHECK(dashboard_has(r, "data-call=\"POST /__admin/reset\""));
  // Nothing from elsewhere: no external script, style or font.
  CHECK_FALSE(dashboard_has(r, "src=\"http"));
  CHECK_FALSE(dashboard_has(r, "href=\"http"));
}

TEST_CASE("the dashboard's record table pages and searches, escaping what it shows",
          "[http][admin][dashboard]") {
  TestOrg t(fixture("default.yaml"));
  auto made =
      t.post("/__admin/records/Contact",
             {{"LastName", "<script>alert(1)</script>"}, {"Email", "x@example.org"}}, false);
  REQUIRE(made.status == 201);
  const std::string id = made.json["Id"].get<std::string>();
  const size_t contacts = t.count("Contact");

  auto found = t.get("/__admin/ui/records/Contact?q=%3Cscript%3E", false);
  INFO(found.body);
  REQUIRE(found.status == 200);
  CHECK(dashboard_has(found, "records 1 to 1 of 1"));
  CHECK(dashboard_has(found, "<a href=\"/__admin/ui/records/Contact/" + id + "\">" + id + "</a>"));
  CHECK(dashboard_has(found, "&lt;script&gt;alert(1)&lt;/script&gt;"));
  CHECK(dashboard_has(found, "value=\"&lt;script&gt;\""));  // the search box keeps the query
  CHECK_FALSE(dashboard_has(found, "<script>alert"));

  auto by_id = t.get("/__admin/ui/records/Contact?q=" + id, false);
  CHECK(dashboard_has(by_id, "records 1 to 1 of 1"));

  auto first = t.get("/__admin/ui/records/Contact?limit=1", false);
  CHECK(dashboard_has(first, "records 1 to 1 of " + std::to_string(contacts)));
  CHECK(dashboard_has(first, ">next</a>"));
  auto past = t.get("/__admin/ui/records/Contact?offset=100000", false);
  CHECK(past.status == 200);
  CHECK(dashboard_has(past, "no records"));

  CHECK(t.get("/__admin/ui/records/Contact?limit=0", false).status == 400);
  CHECK(t.get("/__admin/ui/records/Contact?limit=-1", false).status == 400);
  CHECK(t.get("/__admin/ui/records/Contact?offset=1e9", false).status == 400);
  auto unknown = t.get("/__admin/ui/records/%3Cb%3E", false);
  CHECK(unknown.status == 404);
  CHECK(dashboard_has(unknown, "Object &#39;&lt;b&gt;&#39; does not exist in this org"));
  CHECK(t.get("/__admin/ui/records/Contact/nope", false).status == 404);
}

TEST_CASE("a record page links its references both ways and shows the data API form",
          "[http][admin][dashboard]") {
  TestOrg t(fixture("default.yaml"));
  auto intent = t.create_intent(IntentBody::one_time().contact({{"LastName", "Linked"}}));
  const json inst = t.admin_record("cpm__Installment__c", intent.installment);
  const std::string contact = inst["cpm__Contact__c"].get<std::string>();

  auto page = t.get("/__admin/ui/records/cpm__Installment__c/" + intent.installment, false);
  INFO(page.body);
  REQUIRE(page.status == 200);
  CHECK(dashboard_has(page,
                      "<tr><th>cpm__Contact__c</th><td><a href=\"/__admin/ui/records/"
                      "Contact/" +
                          contact + "\">" + contact +
                          "</a> <span class=\"pill\">Contact</span></td></tr>"));
  CHECK(dashboard_has(page, "<a href=\"/__admin/ui/intent?id=" + intent.id + "\">"));
  CHECK(dashboard_has(page, "&quot;attributes&quot;"));  // the data API's record, escaped

  auto contact_page = t.get("/__admin/ui/records/Contact/" + contact, false);
  INFO(contact_page.body);
  CHECK(dashboard_has(contact_page,
                      "<tr><td>cpm__Installment__c</td><td><a "
                      "href=\"/__admin/ui/records/cpm__Installment__c/" +
                          intent.installment + "\">"));
  // A record id of another object is not this object's record.
  CHECK(t.get("/__admin/ui/records/Account/" + contact, false).status == 404);
}

TEST_CASE("a payment intent's timeline: request, records, session, webhooks",
          "[http][admin][dashboard]") {
  TestOrg t(fixture("default.yaml"));
  auto intent = t.create_intent(IntentBody::one_time()
                                    .contact({{"LastName", "Timeline"}})
                                    .webhook("http://127.0.0.1:9/hooks"));
  auto page = t.get("/__admin/ui/intent?id=" + intent.id, false);
  INFO(page.body);
  REQUIRE(page.status == 200);
  CHECK(dashboard_has(page, "<h1>Payment intent " + intent.id + "</h1>"));
  CHECK(dashboard_has(page,
                      "POST /services/apexrest/cpm/v2/PaymentIntent</td><td "
                      "class=\"num\">200</td>"));
  CHECK(dashboard_has(
      page, "<a href=\"/__admin/ui/records/cpm__Installment__c/" + intent.installment + "\">"));
  CHECK(dashboard_has(page, "<a href=\"/psp/checkout/" + intent.session + "\">"));
  CHECK(dashboard_has(page, "No payment collected yet."));
  const auto log = t.get("/__admin/webhooks?payment_intent=" + intent.id, false);
  const size_t events = log.json["total"].get<size_t>();
  CHECK(events > 0);
  CHECK(dashboard_has(page, "<h2>5. Webhook events (" + std::to_string(events) + ")</h2>"));
  CHECK(dashboard_has(page, "data-call=\"POST /__admin/webhooks/" +
                                log.json["events"][0]["id"].get<std::string>() + "/resend\""));

  auto psp = t.get("/__admin/ui/psp", false);
  CHECK(dashboard_has(psp, "<a href=\"/psp/checkout/" + intent.session + "\">"));

  CHECK(t.get("/__admin/ui/intent", false).status == 400);
  auto unknown = t.get("/__admin/ui/intent?id=pi_%22%3E%3Cx", false);
  CHECK(unknown.status == 404);
  CHECK(dashboard_has(unknown, "No payment intent &#39;pi_&quot;&gt;&lt;x&#39; in this org"));
}

TEST_CASE("the dashboard's journal filters, and its fault and webhook pages list",
          "[http][admin][dashboard]") {
  TestOrg t(fixture("default.yaml"));
  t.create_intent(IntentBody::one_time().contact({{"LastName", "Journal"}}));
  REQUIRE(t.get("/PaymentMethods").status == 200);
  auto all = t.get("/__admin/ui/requests", false);
  auto only = t.get("/__admin/ui/requests?path=/PaymentMethods&method=GET", false);
  INFO(only.body);
  CHECK(dashboard_has(only, "<p>1 request(s), newest first</p>"));
  CHECK(dashboard_has(only, "GET /services/apexrest/cpm/v2/PaymentMethods"));
  CHECK_FALSE(dashboard_has(only, "POST /services/apexrest/cpm/v2/PaymentIntent"));
  CHECK(dashboard_has(all, "POST /services/apexrest/cpm/v2/PaymentIntent"));
  CHECK(t.get("/__admin/ui/requests?limit=x", false).status == 400);

  REQUIRE(
      t.post("/__admin/faults", {{"path", "/Recurring/*"}, {"status", 502}, {"times", 3}}, false)
          .status == 201);
  auto faults = t.get("/__admin/ui/faults", false);
  CHECK(dashboard_has(faults,
                      "<tr><td>*</td><td>/Recurring/*</td><td class=\"num\">502</td><td "
                      "class=\"num\">3</td>"));
  auto hooks = t.get("/__admin/ui/webhooks?offset=0", false);
  CHECK(hooks.status == 200);
  CHECK(t.get("/__admin/ui/webhooks?offset=-3", false).status == 400);
}
