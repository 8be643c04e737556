// The dashboard's frame (header, navigation, style, script) and the helpers
// its pages share; the pages are in dashboard_records.cpp and
// dashboard_activity.cpp.
#include "http/dashboard.h"

#include <cstdio>

#include "http/admin_guard.h"
#include "http/html.h"
#include "http/request_log.h"
#include "http/routes.h"
#include "util/json_text.h"

namespace fake_org::http {
namespace dashboard {
namespace {

// Readable on a laptop screen; no web fonts, nothing fetched.
constexpr const char* kDashboardStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2733;background:#f5f7fa}
header{background:#1d2733;color:#fff;padding:8px 20px;display:flex;gap:18px;align-items:center;flex-wrap:wrap}
header a{color:#cfe3ff;text-decoration:none}header a:hover{text-decoration:underline}
header strong{font-size:16px;margin-right:12px}
main{padding:16px 20px;max-width:1280px}
h1{font-size:20px;margin:4px 0 12px}h2{font-size:16px;margin:22px 0 8px}
table{border-collapse:collapse;background:#fff;width:100%;margin-bottom:8px}
th,td{border:1px solid #d8dee6;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eef2f7;font-weight:600}
td.num{text-align:right}
pre{background:#fff;border:1px solid #d8dee6;padding:8px;overflow:auto;max-height:420px;font-size:12px}
.ok{color:#11692e}.error{color:#a4161a}.muted{color:#667}
#result{min-height:1.4em;font-weight:600}
button{font:inherit;padding:3px 10px;margin:2px;cursor:pointer}
form.inline{display:inline-flex;gap:6px;align-items:center;flex-wrap:wrap;margin:4px 0}
input,select,textarea{font:inherit;padding:2px 4px}
.pill{display:inline-block;padding:0 6px;border-radius:8px;background:#e3e8ef;font-size:12px}
.pager{margin:8px 0}.pager a{margin-right:12px}
.ts{white-space:nowrap}tr.empty td{color:#667;font-style:italic}
)";

// Every button and form with data-call="METHOD URL" calls the JSON admin
// API (a form sends its fields as a JSON object), then reloads the page so
// what it shows is the server's; the answer's status line survives the
// reload in sessionStorage. Every call carries the page's token, and every
// write says it is JSON, as the admin guard asks of a browser (admin_guard.h).
constexpr const char* kDashboardScript = R"(
const adminToken=document.querySelector('meta[name="fake-org-token"]').content;
function fieldsOf(form){const body={};for(const el of form.elements){if(!el.name||el.value==='')continue;
 if(el.dataset.type==='number')body[el.name]=Number(el.value);
 else if(el.dataset.type==='json')body[el.name]=JSON.parse(el.value);else body[el.name]=el.value;}return body;}
async function adminCall(spec,body){const i=spec.indexOf(' ');const method=spec.slice(0,i),url=spec.slice(i+1);
 const init={method,headers:{'X-Fake-Org-Token':adminToken}};
 if(method!=='GET'&&method!=='DELETE')init.headers['Content-Type']='application/json';
 if(body!==undefined){init.headers['Content-Type']='application/json';init.body=JSON.stringify(body);}
 let r,text;try{r=await fetch(url,init);text=await r.text();}
 catch(err){showResult(method+' '+url+' failed: '+err.message,false);return;}
 const line=method+' '+url+' \u2192 '+r.status+(r.ok?'':': '+text.slice(0,400));
 sessionStorage.setItem('dashboardResult',JSON.stringify({line,ok:r.ok}));location.reload();}
document.addEventListener('click',e=>{const b=e.target.closest('button[data-call]');if(!b)return;
 e.preventDefault();if(b.dataset.confirm&&!confirm(b.dataset.confirm))return;
 adminCall(b.dataset.call,b.dataset.body?JSON.parse(b.dataset.body):undefined);});
document.addEventListener('submit',e=>{const f=e.target.closest('form[data-call]');if(!f)return;e.preventDefault();
 let body;try{body=fieldsOf(f);}catch(err){showResult('not JSON: '+err.message,false);return;}adminCall(f.dataset.call,body);});
function showResult(line,ok){const el=document.getElementById('result');el.textContent=line;el.className=ok?'ok':'error';}
const saved=sessionStorage.getItem('dashboardResult');
if(saved){sessionStorage.removeItem('dashboardResult');const s=JSON.parse(saved);showResult(s.line,s.ok);}
)";

// On a server of several orgs: a picker in the header that opens another
// org's dashboard (shown only when there are two or more). The admin paths
// are split so that dashboard_within_org leaves them as they are.
constexpr const char* kOrgPickerScript = R"(
fetch('/__'+'admin/orgs').then(r=>r.ok?r.json():null).then(j=>{if(!j||!j.orgs||j.orgs.length<2)return;
 const m=location.pathname.match(/^\/orgs\/([^/]+)\//);const current=m?decodeURIComponent(m[1]):null;
 const s=document.createElement('select');s.id='org-picker';s.title='Org';
 for(const o of j.orgs){const opt=document.createElement('option');
  opt.value=(o.root?'':'/orgs/'+encodeURIComponent(o.name))+'/__'+'admin/ui';
  opt.textContent=o.name+' ('+o.org+')';opt.selected=current?o.name===current:o.root;s.appendChild(opt);}
 s.onchange=()=>{location.href=s.value;};document.querySelector('header').appendChild(s);}).catch(()=>{});
)";

// The dashboard of /orgs/{name}/__admin/ui links, posts and calls within
// that org (decisions 111): every admin path of the page gets the prefix.
std::string dashboard_within_org(std::string html) {
  const std::string& prefix = request_log_context().org_prefix;
  if (prefix.empty()) return html;
  const std::string from = "/__admin/";
  for (size_t at = html.find(from); at != std::string::npos;
       at = html.find(from, at + prefix.size() + from.size()))
    html.insert(at, prefix);
  return html;
}

char dashboard_hex_digit(unsigned v) {
  return "0123456789ABCDEF"[v & 0xF];
}

}  // namespace

std::string esc(std::string_view text) {
  return html_escape(text);
}

std::string url_part(std::string_view text) {
  std::string out;
  for (unsigned char ch : text) {
    if (std::isalnum(ch) || ch == '-' || ch == '_' || ch == '.' || ch == '~') {
      out += static_cast<char>(ch);
    } else {
      out += '%';
      out += dashboard_hex_digit(ch >> 4);
      out += dashboard_hex_digit(ch);
    }
  }
  return out;
}

std::string link(std::string_view href, std::string_view text) {
  return "<a href=\"" + esc(href) + "\">" + esc(text) + "</a>";
}

const nlohmann::json& member(const nlohmann::json& j, const std::string& key) {
  static const nlohmann::json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

std::string cell_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return text::json_text(v);
}

std::string ms_text(const nlohmann::json& v) {
  if (!v.is_number()) return cell_text(v);
  const double ms = v.get<double>();
  char buf[32];
  std::snprintf(buf, sizeof buf, ms < 10 ? "%.2f" : ms < 100 ? "%.1f" : "%.0f", ms);
  return buf;
}

std::string ts_cell(std::string_view text) {
  return "<td class=\"ts\">" + esc(text) + "</td>";
}

std::string empty_row(size_t columns, std::string_view text) {
  return "<tr class=\"empty\"><td colspan=\"" + std::to_string(columns) + "\">" + esc(text) +
         "</td></tr>";
}

std::string json_block(const nlohmann::json& v) {
  return "<pre>" + esc(text::json_text(v, 2)) + "</pre>";
}

std::string record_href(std::string_view object, std::string_view id) {
  return "/__admin/ui/records/" + url_part(object) + "/" + url_part(id);
}

std::string query_param(const httplib::Request& req, const char* name) {
  return req.has_param(name) ? req.get_param_value(name) : std::string();
}

bool size_query_param(const httplib::Request& req, const char* name, size_t fallback, size_t& out) {
  if (!req.has_param(name)) {
    out = fallback;
    return true;
  }
  const std::string v = req.get_param_value(name);
  if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos)
    return false;
  out = static_cast<size_t>(std::stoul(v));
  return true;
}

std::string page(std::string_view title, std::string_view body, std::string_view nonce) {
  std::string html =
      "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
      "<meta name=\"fake-org-token\" content=\"";
  html += esc(request_log_context().admin_token);
  html += "\"><title>";
  html += esc(title);
  html += " - fake-org</title><style nonce=\"";
  html += nonce;
  html += "\">";
  html += kDashboardStyle;
  html +=
      "</style></head><body><header><strong>fake-org</strong>"
      "<a href=\"/__admin/ui\">Overview</a>"
      "<a href=\"/__admin/ui/requests\">Requests</a>"
      "<a href=\"/__admin/ui/psp\">PSP sessions</a>"
      "<a href=\"/__admin/ui/webhooks\">Webhooks</a>"
      "<a href=\"/__admin/ui/faults\">Faults</a>"
      "<form class=\"inline\" method=\"get\" action=\"/__admin/ui/intent\">"
      "<input name=\"id\" placeholder=\"pi_...\" aria-label=\"Payment intent id\" size=\"24\">"
      "<button>Open intent</button></form></header><main><div id=\"result\"></div><h1>";
  html += esc(title);
  html += "</h1>";
  html += body;
  html += "</main><script nonce=\"";
  html += nonce;
  html += "\">";
  html += kDashboardScript;
  html += kOrgPickerScript;
  html += "</script></body></html>";
  return dashboard_within_org(std::move(html));
}

// Only the page's own script and style run, it calls and posts only to this
// server, and no other site may frame it (a click-jacking page would).
void send_page(httplib::Response& res, int status, std::string_view title, std::string_view body) {
  const std::string nonce = random_hex_token();
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_header("Content-Security-Policy",
                 "default-src 'none'; script-src 'nonce-" + nonce + "'; style-src 'nonce-" + nonce +
                     "'; connect-src 'self'; img-src 'self' data:; form-action 'self'; "
                     "base-uri 'none'; frame-ancestors 'none'");
  res.set_header("X-Frame-Options", "DENY");
  res.set_content(page(title, body, nonce), "text/html; charset=utf-8");
}

void send_problem(httplib::Response& res, int status, std::string_view message) {
  send_page(res, status, status == 404 ? "Not found" : "Bad request",
            "<p class=\"error\" id=\"problem\">" + esc(message) +
                "</p><p><a href=\"/__admin/ui\">Back to the overview</a></p>");
}

}  // namespace dashboard

FAKE_ORG_HANDLERS(dashboard) {
  const std::shared_ptr<admin::Admin> admin = context.admin;
  const OrgServices& services = context.services;
  RequestJournal& journal = context.journal;
  FaultInjector& faults = context.faults;
  WebhookEngine& engine = *services.webhooks;
  const ContractMonitor* monitor = services.monitor.get();
  handlers.on("getAdminUi",
              [admin, monitor](Call& c) { dashboard::overview_page(*admin, monitor, c); });
  handlers.on("getAdminUiRecords", [admin](Call& c) { dashboard::records_page(*admin, c); });
  handlers.on("getAdminUiRecord", [admin](Call& c) { dashboard::record_page(*admin, c); });
  handlers.on("getAdminUiIntent", [admin, webhooks = services.webhooks, &journal](Call& c) {
    dashboard::intent_page(*admin, *webhooks, journal, c);
  });
  handlers.on("getAdminUiRequests", [&journal](Call& c) { dashboard::requests_page(journal, c); });
  handlers.on("getAdminUiPsp", [admin](Call& c) { dashboard::psp_page(*admin, c); });
  handlers.on("getAdminUiWebhooks", [&engine](Call& c) { dashboard::webhooks_page(engine, c); });
  handlers.on("getAdminUiFaults", [&faults](Call& c) { dashboard::faults_page(faults, c); });
}

}  // namespace fake_org::http
