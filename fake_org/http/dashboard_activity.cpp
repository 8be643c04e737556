// The dashboard's payment-intent timeline, request journal, PSP sessions,
// webhook log and fault injection.
#include <algorithm>

#include "domain/core/fields.h"
#include "events/webhook_engine.h"
#include "http/dashboard.h"
#include "http/fault_injector.h"
#include "http/request_journal.h"
#include "util/json_text.h"

namespace fake_org::http::dashboard {
namespace {

constexpr size_t kJournalShown = 100;
constexpr size_t kWebhooksPage = 50;
// Installments whose PSP sessions the sessions page shows, newest first.
constexpr size_t kPspInstallments = 200;
constexpr size_t kIntentWebhooks = 1000;

std::string intent_link(const std::string& pi) {
  return pi.empty() ? std::string() : link("/__admin/ui/intent?id=" + url_part(pi), pi);
}

std::string journal_table(const std::vector<std::shared_ptr<const JournalEntry>>& entries) {
  std::string h =
      "<table id=\"requests\"><tr><th>#</th><th>Org time</th><th>Request</th><th>Status</th>"
      "<th>ms</th><th>Payment intent</th><th>Body</th></tr>";
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    const nlohmann::json j = **it;
    const std::string query = cell_text(member(j, "query"));
    h += "<tr><td class=\"num\">" + std::to_string((*it)->seq) + "</td>" +
         ts_cell(cell_text(member(j, "received_at"))) + "<td>" + esc((*it)->method) + " " +
         esc((*it)->path + (query.empty() ? "" : "?" + query)) + "</td><td class=\"num\">" +
         std::to_string((*it)->status) + ((*it)->injected_fault ? " (fault)" : "") +
         "</td><td class=\"num\">" + esc(ms_text(member(j, "duration_ms"))) + "</td><td>" +
         intent_link((*it)->payment_intent) + "</td><td>";
    const nlohmann::json& body = member(j, "body");
    if (!body.is_null() && body != "")
      h += "<details><summary>body</summary>" + json_block(body) + "</details>";
    h += "</td></tr>";
  }
  if (entries.empty()) h += empty_row(7, "no requests");
  return h + "</table>";
}

std::string attempts_table(const nlohmann::json& attempts) {
  std::string h =
      "<table class=\"attempts\"><tr><th>Series</th><th>Attempt</th><th>At (org time)</th>"
      "<th>HTTP status</th><th>Error</th><th>ms</th></tr>";
  for (const auto& a : attempts)
    h += "<tr><td>" + esc(cell_text(member(a, "series"))) + "</td><td>" +
         esc(cell_text(member(a, "attempt"))) + "</td>" + ts_cell(cell_text(member(a, "at"))) +
         "<td class=\"num\">" + esc(cell_text(member(a, "status"))) + "</td><td>" +
         esc(cell_text(member(a, "error"))) + "</td><td class=\"num\">" +
         esc(ms_text(member(a, "duration_ms"))) + "</td></tr>";
  if (attempts.empty()) h += empty_row(6, "no delivery attempt yet");
  return h + "</table>";
}

// One webhook event: its line, every delivery attempt and a resend button.
std::string webhook_event_block(const nlohmann::json& e) {
  const std::string id = cell_text(member(e, "id"));
  return "<div class=\"webhook\" data-event=\"" + esc(id) + "\"><h2>" +
         esc(cell_text(member(e, "type"))) + " <span class=\"pill\">" +
         esc(cell_text(member(e, "state"))) + "</span></h2><p>" + esc(id) + " to " +
         esc(cell_text(member(e, "url"))) + ", created <span class=\"ts\">" +
         esc(cell_text(member(e, "created_at"))) + "</span>" +
         (cell_text(member(e, "reason")).empty() ? ""
                                                 : ", " + esc(cell_text(member(e, "reason")))) +
         " <button data-call=\"POST /__admin/webhooks/" + esc(url_part(id)) +
         "/resend\">Resend</button></p>" + attempts_table(member(e, "attempts")) +
         "<details><summary>body</summary>" + json_block(member(e, "body")) + "</details></div>";
}

std::string field_text(const Record& r, const char* field) {
  auto v = r.get(field);
  return v ? cell_text(v->json()) : std::string();
}

std::string records_written(const admin::IntentRecords& rs) {
  std::string h =
      "<table id=\"intent-records\"><tr><th>Object</th><th>Id</th><th>Status</th><th>Amount</th>"
      "<th>Date</th></tr>";
  auto row = [&](const Record& r, const char* status, const char* amount, const char* date) {
    h += "<tr><td>" + esc(r.object) + "</td><td>" + link(record_href(r.object, r.id), r.id) +
         "</td><td>" + esc(status ? field_text(r, status) : "") + "</td><td>" +
         esc(amount ? field_text(r, amount) : "") + "</td>" +
         ts_cell(date ? field_text(r, date) : "") + "</tr>";
  };
  for (const auto& r : rs.reports) row(*r, nullptr, nullptr, nullptr);
  for (const auto& r : rs.named)
    if (r->object != objects::kInstallment) row(*r, nullptr, nullptr, nullptr);
  for (const auto& r : rs.installments)
    row(*r, fields::installment::kStatus, fields::installment::kAmount,
        fields::installment::kDueDate);
  for (const auto& r : rs.payments)
    row(*r, fields::payment::kStatus, fields::payment::kAmount, fields::payment::kCollectionDate);
  if (rs.reports.empty() && rs.named.empty() && rs.installments.empty() && rs.payments.empty())
    h += empty_row(5, "no records");
  return h + "</table>";
}

std::string psp_sessions_table(const std::vector<PspSession>& sessions, bool with_intent) {
  std::string h = "<table id=\"psp-sessions\"><tr><th>Session</th>";
  if (with_intent) h += "<th>Payment intent</th>";
  h += "<th>Installment</th><th>Method</th><th>Amount</th><th>Status</th><th>Payer actions</th>"
       "<th>Last outcome</th></tr>";
  for (const auto& s : sessions) {
    h += "<tr><td>" + link("/psp/checkout/" + url_part(s.id), s.id) + "</td>";
    if (with_intent) h += "<td>" + intent_link(s.payment_intent_id) + "</td>";
    h += "<td>" +
         (s.installment_id.empty()
              ? std::string()
              : link(record_href(objects::kInstallment, s.installment_id), s.installment_id)) +
         "</td><td>" + esc(s.method) + "</td><td>" + esc(cell_text(s.amount)) + " " +
         esc(s.currency) + "</td><td>" + esc(s.status) + "</td><td class=\"num\">" +
         std::to_string(s.attempts) + "</td><td>" + esc(s.last_outcome) + "</td></tr>";
  }
  if (sessions.empty()) h += empty_row(with_intent ? 8 : 7, "no PSP sessions");
  return h + "</table>";
}

}  // namespace

void intent_page(const admin::Admin& admin, WebhookEngine& engine, RequestJournal& journal,
                 Call& c) {
  const std::string pi = query_param(c.req, "id");
  if (pi.empty()) return send_problem(c.res, 400, "Give the payment intent: ?id=pi_...");
  const admin::IntentRecords rs = admin.intent_records(pi);
  JournalFilter f;
  f.payment_intent = pi;
  const auto entries = journal.list(f);
  const WebhookEngine::LogPage hooks = engine.log_page(pi, 0, kIntentWebhooks);
  if (rs.reports.empty() && rs.installments.empty() && entries.empty() && hooks.total == 0)
    return send_problem(c.res, 404, "No payment intent '" + pi + "' in this org");
  std::vector<PspSession> sessions;
  for (const auto& inst : rs.installments)
    if (auto s = admin.psp_session_of_installment(inst->id)) sessions.push_back(*s);
  std::string body = "<h2>1. Requests</h2>" + journal_table(entries) +
                     "<h2>2. Records written</h2>" + records_written(rs) +
                     "<h2>3. Hosted payment page (PSP session)</h2>" +
                     (sessions.empty() ? std::string("<p id=\"no-session\">None: the method is "
                                                     "collected without the payer, or no page "
                                                     "was opened.</p>")
                                       : psp_sessions_table(sessions, false)) +
                     "<h2>4. Collections</h2>";
  body += rs.payments.empty() ? std::string("<p id=\"collections\">No payment collected yet.</p>")
                              : "<p id=\"collections\">" + std::to_string(rs.payments.size()) +
                                    " payment(s) collected (above, cpm__Payment__c).</p>";
  body += "<h2>5. Webhook events (" + std::to_string(hooks.total) + ")</h2>";
  for (const auto& e : hooks.events) body += webhook_event_block(e);
  send_page(c.res, 200, "Payment intent " + pi, body);
}

void requests_page(RequestJournal& journal, Call& c) {
  JournalFilter f;
  f.method = query_param(c.req, "method");
  f.path = query_param(c.req, "path");
  f.payment_intent = query_param(c.req, "payment_intent");
  if (!size_query_param(c.req, "limit", kJournalShown, f.limit))
    return send_problem(c.res, 400, "'limit' must be a whole number such as 20");
  const auto entries = journal.list(f);
  std::string body =
      "<form class=\"inline\" method=\"get\" id=\"journal-filter\">"
      "<input name=\"method\" placeholder=\"method\" size=\"7\" value=\"" +
      esc(f.method) +
      "\"><input name=\"path\" placeholder=\"/PaymentIntent\" size=\"24\" value=\"" + esc(f.path) +
      "\"><input name=\"payment_intent\" placeholder=\"pi_...\" size=\"28\" value=\"" +
      esc(f.payment_intent) + "\"><input name=\"limit\" size=\"5\" aria-label=\"limit\" value=\"" +
      std::to_string(f.limit) +
      "\"><button>Filter</button></form> <button data-call=\"DELETE /__admin/requests\">Clear "
      "the journal</button><p>" +
      std::to_string(entries.size()) + " request(s), newest first</p>";
  send_page(c.res, 200, "Request journal", body + journal_table(entries));
}

void psp_page(const admin::Admin& admin, Call& c) {
  const std::vector<PspSession> sessions = admin.newest_psp_sessions(kPspInstallments);
  send_page(c.res, 200, "PSP sessions",
            "<p class=\"muted\">The hosted payment pages of the newest " +
                std::to_string(kPspInstallments) + " installments; a session opens its page.</p>" +
                psp_sessions_table(sessions, true));
}

void webhooks_page(WebhookEngine& engine, Call& c) {
  size_t offset = 0;
  if (!size_query_param(c.req, "offset", 0, offset))
    return send_problem(c.res, 400, "'offset' must be a whole number");
  const std::string pi = query_param(c.req, "payment_intent");
  const WebhookEngine::LogPage p = engine.log_page(pi, offset, kWebhooksPage);
  std::string body = "<p class=\"pager\" id=\"pager\">" + std::to_string(p.total) + " event(s) ";
  const std::string base = "/__admin/ui/webhooks?payment_intent=" + url_part(pi) + "&offset=";
  if (offset > 0)
    body += link(base + std::to_string(offset > kWebhooksPage ? offset - kWebhooksPage : 0),
                 "previous");
  if (offset + kWebhooksPage < p.total)
    body += link(base + std::to_string(offset + kWebhooksPage), "next");
  body +=
      "</p><table id=\"webhooks\"><tr><th>Event</th><th>Type</th><th>Payment intent</th>"
      "<th>State</th><th>Attempts</th><th>Last status</th><th></th></tr>";
  for (const auto& e : p.events) {
    const std::string id = cell_text(member(e, "id"));
    const auto& attempts = member(e, "attempts");
    body += "<tr><td>" + esc(id) + "</td><td>" + esc(cell_text(member(e, "type"))) + "</td><td>" +
            intent_link(cell_text(member(e, "payment_intent"))) + "</td><td>" +
            esc(cell_text(member(e, "state"))) + "</td><td class=\"num\">" +
            std::to_string(attempts.size()) + "</td><td class=\"num\">" +
            (attempts.empty() ? std::string() : esc(cell_text(member(attempts.back(), "status")))) +
            "</td><td><button data-call=\"POST /__admin/webhooks/" + esc(url_part(id)) +
            "/resend\">Resend</button></td></tr>";
  }
  if (p.events.empty()) body += empty_row(7, "no webhook events");
  send_page(c.res, 200, "Webhook log", body + "</table>");
}

void faults_page(FaultInjector& faults, Call& c) {
  std::string body =
      "<form class=\"inline\" data-call=\"POST /__admin/faults\" id=\"add-fault\">"
      "<select name=\"method\" aria-label=\"Method\"><option>POST</option><option>GET</option>"
      "<option>PATCH</option><option>PUT</option><option>DELETE</option><option>*</option>"
      "</select><input name=\"path\" value=\"/PaymentIntent\" aria-label=\"Path\">"
      "<label>status <input name=\"status\" data-type=\"number\" value=\"503\" size=\"4\"></label>"
      "<label>times <input name=\"times\" data-type=\"number\" value=\"1\" size=\"3\"></label>"
      "<label>body <input name=\"body\" data-type=\"json\" placeholder='{\"Errors\": []}' "
      "size=\"30\"></label><button>Add fault</button></form> "
      "<button data-call=\"DELETE /__admin/faults\" id=\"clear-faults\">Clear faults</button>"
      "<table id=\"faults\"><tr><th>Method</th><th>Path</th><th>Status</th><th>Remaining</th>"
      "<th>Body</th></tr>";
  const auto active = faults.list();
  for (const auto& f : active)
    body += "<tr><td>" + esc(f.method) + "</td><td>" + esc(f.path) + "</td><td class=\"num\">" +
            std::to_string(f.status) + "</td><td class=\"num\">" + std::to_string(f.remaining) +
            "</td><td>" + esc(text::json_text(f.body)) + "</td></tr>";
  if (active.empty()) body += empty_row(5, "no active faults");
  send_page(c.res, 200, "Fault injection", body + "</table>");
}

}  // namespace fake_org::http::dashboard
