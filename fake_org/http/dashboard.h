#pragma once
// The dashboard under /__admin/ui: server-rendered pages over the same org,
// journal, webhook log and faults as the JSON admin API, whose calls its
// buttons and forms make (a little JavaScript, served inline: no build step,
// nothing from a CDN). Behind the admin guard, like the rest of /__admin
// (admin_guard.h).
//
// Stateless: each page reads the org through its admin::Admin (which holds
// the store's lock only to copy what a page shows) and the journal's and
// webhook engine's copies, and renders after.
#include <string>
#include <string_view>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "admin/admin.h"
#include "org_services.h"
#include "router.h"

namespace fake_org::http {

class RequestJournal;
class FaultInjector;

// The pages are the group dashboard (http/routes.h).

namespace dashboard {

// The page with the dashboard's header, navigation, style and script around
// `body` (already HTML); `title` is escaped here. Its script and style
// carry `nonce` (the Content-Security-Policy's), its head the admin token.
std::string page(std::string_view title, std::string_view body, std::string_view nonce);
void send_page(httplib::Response& res, int status, std::string_view title, std::string_view body);
// A 4xx page saying why, with a way back.
void send_problem(httplib::Response& res, int status, std::string_view message);

// Text as HTML; percent-encoding for a URL's query value or path segment.
std::string esc(std::string_view text);
std::string url_part(std::string_view text);
// <a href="HREF">TEXT</a>, both escaped.
std::string link(std::string_view href, std::string_view text);
// j[key] without the undefined behaviour of a const operator[] on a missing
// key: null unless j is an object with that key.
const nlohmann::json& member(const nlohmann::json& j, const std::string& key);
// A JSON value as a table cell shows it: strings bare, the rest as JSON.
std::string cell_text(const nlohmann::json& v);
// Milliseconds as a person reads them: 0.15, 12.3, 250 (a number), else as
// cell_text shows it.
std::string ms_text(const nlohmann::json& v);
// A table cell of an instant or a date, kept on one line; escaped here.
std::string ts_cell(std::string_view text);
// The row an empty table shows instead of nothing: `text` across `columns`.
std::string empty_row(size_t columns, std::string_view text);
// Pretty JSON in a <pre>, escaped.
std::string json_block(const nlohmann::json& v);
// The record page's URL.
std::string record_href(std::string_view object, std::string_view id);
// A request parameter, or "".
std::string query_param(const httplib::Request& req, const char* name);
// A whole-number parameter (absent: `fallback`; anything else: nullopt).
bool size_query_param(const httplib::Request& req, const char* name, size_t fallback, size_t& out);

// Pages (dashboard_records.cpp, dashboard_activity.cpp).
void overview_page(const admin::Admin& admin, const ContractMonitor* monitor, Call& c);
void records_page(const admin::Admin& admin, Call& c);
void record_page(const admin::Admin& admin, Call& c);
void intent_page(const admin::Admin& admin, WebhookEngine& engine, RequestJournal& journal,
                 Call& c);
void requests_page(RequestJournal& journal, Call& c);
void psp_page(const admin::Admin& admin, Call& c);
void webhooks_page(WebhookEngine& engine, Call& c);
void faults_page(FaultInjector& faults, Call& c);

}  // namespace dashboard
}  // namespace fake_org::http
