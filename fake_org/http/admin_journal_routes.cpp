// GET /__admin/requests (the request journal, filtered) and DELETE (clear).
#include "request_journal.h"
#include "responses.h"
#include "routes.h"

namespace fake_org::http {

namespace {

std::string param(const httplib::Request& req, const char* name) {
  return req.has_param(name) ? req.get_param_value(name) : std::string();
}

void get_requests(RequestJournal& journal, Call& c) {
  JournalFilter f;
  f.method = param(c.req, "method");
  f.path = param(c.req, "path");
  f.payment_intent = param(c.req, "payment_intent");
  if (c.req.has_param("limit")) {
    const std::string limit = param(c.req, "limit");
    if (limit.empty() || limit.size() > 9 ||
        limit.find_first_not_of("0123456789") != std::string::npos)
      return send_json(c.res, 400,
                       errors_body({make_error(
                           error_code::kMissingCoreParameter, "limit",
                           "'limit' must be a whole number such as 20; got '" + limit + "'")}));
    f.limit = std::stoul(limit);
  }
  auto entries = journal.list(f);  // the lock is released: JSON and redaction here
  nlohmann::json requests = nlohmann::json::array();
  for (const auto& e : entries) requests.push_back(*e);
  send_json(c.res, 200, {{"requests", std::move(requests)}});
}

}  // namespace

FAKE_ORG_HANDLERS(journal_admin) {
  RequestJournal& journal = context.journal;
  handlers.on("getAdminRequests", [&journal](Call& c) { get_requests(journal, c); });
  handlers.on("deleteAdminRequests", [&journal](Call& c) {
    journal.clear();
    send_json(c.res, 200, {{"requests", nlohmann::json::array()}});
  });
}

}  // namespace fake_org::http
