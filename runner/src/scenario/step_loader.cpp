#include "scenario/step_loader.h"

#include <algorithm>
#include <regex>

#include "eval/csv_expect.h"
#include "eval/interpolate.h"
#include "eval/json_path.h"
#include "eval/matchers.h"
#include "util/calendar.h"

namespace runner {
namespace {

const std::set<std::string> kKinds = {"request", "await_webhook", "psp", "clock",
                                      "poll",    "query",         "bulk"};
const std::set<std::string> kMethods = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"};

RequestSpec load_request(LoadContext& ctx, const YAML::Node& n,
                         const std::set<std::string>& defined) {
  RequestSpec r;
  r.pos = ctx.pos(n);
  if (n.IsScalar()) {  // shorthand "GET /PaymentMethods"
    static const std::regex line(R"(^\s*([A-Za-z]+)\s+(\S+)\s*$)");
    std::smatch m;
    const std::string s = n.Scalar();
    if (!std::regex_match(s, m, line)) {
      ctx.error(n, "a request written on one line reads 'METHOD /path'");
      return r;
    }
    r.method = m[1];
    r.path = m[2];
  } else {
    if (!ctx.expect_map(n, "request")) return r;
    ctx.check_keys(
        n, {"method", "path", "query", "headers", "json", "body", "form", "auth", "timeout"},
        "request");
    if (n["method"])
      if (auto m = ctx.string(n["method"], "request.method")) r.method = *m;
    if (!n["path"]) {
      ctx.error(n, "request needs a path (relative to the API base, e.g. /PaymentMethods)");
    } else if (auto p = ctx.string(n["path"], "request.path")) {
      r.path = *p;
    }
    if (n["query"]) r.query = ctx.string_map(n["query"], "query");
    if (n["headers"]) r.headers = ctx.string_map(n["headers"], "headers");
    int bodies = 0;
    if (n["json"]) {
      ++bodies;
      PositionMap pm;
      r.body = RequestSpec::Body::kJson;
      r.json = ctx.json(n["json"], &pm);
      ctx.check_refs(r.json, pm, n["json"], defined);
    }
    if (n["body"]) {
      ++bodies;
      r.body = RequestSpec::Body::kRaw;
      if (auto b = ctx.string(n["body"], "request.body")) r.raw = *b;
      ctx.check_refs_text(r.raw, n["body"], defined);
    }
    if (n["form"]) {
      ++bodies;
      r.body = RequestSpec::Body::kForm;
      r.form = ctx.string_map(n["form"], "form");
    }
    if (bodies > 1) ctx.error(n, "a request has one of json, body or form, not several");
    if (n["auth"])
      if (auto a = ctx.boolean(n["auth"], "request.auth")) r.auth = *a;
    if (n["timeout"])
      if (auto t = ctx.duration(n["timeout"], "request.timeout")) r.timeout = *t;
  }
  std::transform(r.method.begin(), r.method.end(), r.method.begin(), ::toupper);
  const YAML::Node at = n.IsMap() && n["method"] ? n["method"] : n;
  if (!kMethods.count(r.method)) ctx.error(at, "unknown HTTP method '" + r.method + "'");
  const YAML::Node path_node = n.IsMap() && n["path"] ? n["path"] : n;
  if (!r.path.empty() && r.path[0] != '/' && r.path.rfind("${", 0) != 0)
    ctx.error(path_node, "request.path starts with '/' (it is relative to the API base)");
  ctx.check_refs_text(r.path, path_node, defined);
  for (const auto& [name, key] :
       {std::pair{&r.query, "query"}, {&r.headers, "headers"}, {&r.form, "form"}}) {
    if (!n.IsMap() || !n[key]) continue;
    for (const auto& [k, v] : *name) {
      ctx.check_refs_text(k, n[key], defined);
      ctx.check_refs_text(v, n[key][k], defined);
    }
  }
  return r;
}

// Expected JSON: its matchers well-formed, the variables it uses defined.
// `positions`, when given, keeps where each of its values is written.
Json checked_json(LoadContext& ctx, const YAML::Node& node, const std::set<std::string>& defined,
                  PositionMap* positions = nullptr) {
  PositionMap local;
  PositionMap& pm = positions ? *positions : local;
  Json v = ctx.json(node, &pm);
  for (const auto& issue : validate_expected(v))
    ctx.error(ctx.at(pm, issue.pointer, node), issue.message);
  ctx.check_refs(v, pm, node, defined);
  return v;
}

}  // namespace

Expectation load_expect(LoadContext& ctx, const YAML::Node& n, const std::set<std::string>& defined,
                        const std::string& what) {
  Expectation e;
  e.pos = ctx.pos(n);
  if (!ctx.expect_map(n, what)) return e;
  ctx.check_keys(n, {"status", "headers", "json", "exact", "body", "csv", "contract"}, what);
  if (n["status"]) {
    e.status_pos = ctx.pos(n["status"]);
    Json s = checked_json(ctx, n["status"], defined);
    auto is_status = [](const Json& v) {
      return v.is_number_integer() && v.get<long>() >= 100 && v.get<long>() <= 599;
    };
    bool ok = is_status(s) || is_matcher(s) ||
              (s.is_array() && !s.empty() && std::all_of(s.begin(), s.end(), is_status));
    if (!ok)
      ctx.error(n["status"], what + ".status must be an HTTP status, a list of them, or a matcher");
    e.status = s;
  }
  if (n["headers"]) {
    if (ctx.expect_map(n["headers"], what + ".headers"))
      for (const auto& kv : n["headers"]) {
        Json v = checked_json(ctx, kv.second, defined);
        if (!v.is_string() && !is_matcher(v))
          ctx.error(kv.second, "an expected header value is text or a matcher");
        e.headers.emplace_back(kv.first.Scalar(), v);
        e.header_pos.push_back(ctx.pos(kv.first));
      }
  }
  if (n["json"]) {
    e.json_pos = ctx.pos(n["json"]);
    PositionMap pm;
    e.json = checked_json(ctx, n["json"], defined, &pm);
    e.json_at.insert(pm.begin(), pm.end());
  }
  if (n["body"]) {
    e.body_pos = ctx.pos(n["body"]);
    e.body = checked_json(ctx, n["body"], defined);
    if (!e.body->is_string() && !is_matcher(*e.body))
      ctx.error(n["body"], what + ".body (the raw text) is text or a matcher; use json for JSON");
  }
  if (n["csv"]) {
    e.csv_pos = ctx.pos(n["csv"]);
    PositionMap pm;
    e.csv = ctx.json(n["csv"], &pm);
    for (const auto& issue : validate_csv_expected(*e.csv))
      ctx.error(ctx.at(pm, issue.pointer, n["csv"]), what + ".csv: " + issue.message);
    ctx.check_refs(*e.csv, pm, n["csv"], defined);
    e.csv_at.insert(pm.begin(), pm.end());
  }
  if (n["exact"])
    if (auto x = ctx.boolean(n["exact"], what + ".exact")) e.exact = *x;
  if (n["contract"])
    if (auto c = ctx.boolean(n["contract"], what + ".contract")) e.contract = *c;
  return e;
}

namespace {

std::vector<Capture> load_captures(LoadContext& ctx, const YAML::Node& n) {
  std::vector<Capture> out;
  if (!ctx.expect_map(n, "capture")) return out;
  ctx.check_duplicates(n, "capture");
  for (const auto& kv : n) {
    Capture c;
    c.pos = ctx.pos(kv.first);
    c.var = kv.first.Scalar();
    if (!is_variable_name(c.var) || is_builtin_name(c.var))
      ctx.error(kv.first, "'" + c.var +
                              "' cannot be a variable name (letters, digits, _ and .; "
                              "not a built-in)");
    const YAML::Node& src = kv.second;
    if (src.IsScalar()) {
      c.path = src.Scalar();
    } else if (ctx.expect_map(src, "capture '" + c.var + "'")) {
      ctx.check_keys(src, {"path", "header", "status", "regex"}, "capture '" + c.var + "'");
      int sources = 0;
      if (src["path"]) {
        ++sources;
        c.path = ctx.string(src["path"], "capture.path").value_or("");
      }
      if (src["header"]) {
        ++sources;
        c.from = Capture::From::kHeader;
        c.header = ctx.string(src["header"], "capture.header").value_or("");
      }
      if (src["status"]) {
        ++sources;
        c.from = Capture::From::kStatus;
        if (ctx.boolean(src["status"], "capture.status") != true)
          ctx.error(src["status"], "capture.status takes true");
      }
      if (sources != 1) ctx.error(src, "a capture reads from one of path, header or status");
      if (src["regex"]) {
        c.regex = ctx.string(src["regex"], "capture.regex").value_or("");
        try {
          std::regex re(c.regex);
        } catch (const std::regex_error& err) {
          ctx.error(src["regex"], std::string("invalid regular expression: ") + err.what());
        }
      }
    }
    if (c.from == Capture::From::kBody) {
      ParsedPath p = parse_path(c.path);
      if (!p.error.empty()) ctx.error(src, "capture path '" + c.path + "': " + p.error);
    }
    out.push_back(std::move(c));
  }
  return out;
}

AwaitWebhookStep load_await(LoadContext& ctx, const YAML::Node& n,
                            const std::set<std::string>& defined) {
  AwaitWebhookStep a;
  if (!ctx.expect_map(n, "await_webhook")) return a;
  ctx.check_keys(n, {"type", "match", "timeout", "contract"}, "await_webhook");
  if (n["type"]) {
    a.type = checked_json(ctx, n["type"], defined);
    if (!a.type.is_string() && !is_matcher(a.type))
      ctx.error(n["type"], "await_webhook.type is an event type or a matcher");
  }
  if (n["match"]) a.match = checked_json(ctx, n["match"], defined);
  if (n["timeout"])
    if (auto t = ctx.duration(n["timeout"], "await_webhook.timeout")) a.timeout = *t;
  if (n["contract"])
    if (auto c = ctx.boolean(n["contract"], "await_webhook.contract")) a.contract = *c;
  return a;
}

PspStep load_psp(LoadContext& ctx, const YAML::Node& n, const std::set<std::string>& defined) {
  PspStep p;
  if (!ctx.expect_map(n, "psp")) return p;
  ctx.check_keys(n, {"redirect", "session", "outcome", "card_number", "iban", "email", "challenge"},
                 "psp");
  if (n["redirect"]) p.redirect = ctx.string(n["redirect"], "psp.redirect").value_or("");
  if (n["session"]) p.session = ctx.string(n["session"], "psp.session").value_or("");
  if (p.redirect.empty() == p.session.empty())
    ctx.error(n, "psp needs either redirect (a RedirectURL, e.g. ${redirect}) or session");
  if (n["redirect"]) ctx.check_refs_text(p.redirect, n["redirect"], defined);
  if (n["session"]) ctx.check_refs_text(p.session, n["session"], defined);
  if (!n["outcome"]) {
    ctx.error(n, "psp needs an outcome: success, failure or cancel");
  } else {
    p.outcome = ctx.string(n["outcome"], "psp.outcome").value_or("");
    if (p.outcome != "success" && p.outcome != "failure" && p.outcome != "cancel")
      ctx.error(n["outcome"], "psp.outcome is success, failure or cancel");
  }
  if (n["card_number"]) {
    p.card_number = ctx.string(n["card_number"], "psp.card_number").value_or("");
    ctx.check_refs_text(p.card_number, n["card_number"], defined);
  }
  // What the payer types on a bank method's page (IBAN) or a wallet's (login).
  for (auto [key, field] : {std::pair{"iban", &p.iban}, std::pair{"email", &p.email}}) {
    if (!n[key]) continue;
    *field = ctx.string(n[key], std::string("psp.") + key).value_or("");
    ctx.check_refs_text(*field, n[key], defined);
  }
  if (n["challenge"]) {
    p.challenge = ctx.string(n["challenge"], "psp.challenge").value_or("");
    if (p.challenge != "pass" && p.challenge != "fail")
      ctx.error(n["challenge"],
                "psp.challenge is pass or fail (the payer's answer to a challenge card)");
  }
  return p;
}

ClockStep load_clock(LoadContext& ctx, const YAML::Node& n, const std::set<std::string>& defined) {
  ClockStep c;
  if (!ctx.expect_map(n, "clock")) return c;
  ctx.check_keys(n, {"advance", "set"}, "clock");
  if (n["advance"]) {
    c.advance = ctx.string(n["advance"], "clock.advance").value_or("");
    if (c.advance.find("${") != std::string::npos)
      ctx.check_refs_text(c.advance, n["advance"], defined);
    else if (!fake_org::parse_clock_advance(c.advance))
      ctx.error(n["advance"],
                "clock.advance is a duration such as 90m, 2h, 30d or 1w (units ms, s, m, h, d, w)");
  }
  if (n["set"]) {
    c.set = ctx.string(n["set"], "clock.set").value_or("");
    if (c.set.find("${") != std::string::npos)
      ctx.check_refs_text(c.set, n["set"], defined);
    else if (!fake_org::parse_iso8601(c.set))
      ctx.error(n["set"], "clock.set is an instant such as 2027-01-31T09:00:00Z");
  }
  if (c.advance.empty() == c.set.empty()) ctx.error(n, "clock needs one of advance or set");
  return c;
}

PollStep load_poll(LoadContext& ctx, const YAML::Node& n, const std::set<std::string>& defined) {
  PollStep p;
  if (!ctx.expect_map(n, "poll")) return p;
  ctx.check_keys(n, {"request", "expect", "halt", "timeout", "interval"}, "poll");
  if (n["request"])
    p.request = load_request(ctx, n["request"], defined);
  else
    ctx.error(n, "poll needs a request");
  if (n["expect"])
    p.expect = load_expect(ctx, n["expect"], defined, "poll.expect");
  else
    ctx.error(n, "poll needs an expect: the condition to wait for");
  if (n["halt"]) p.halt = load_expect(ctx, n["halt"], defined, "poll.halt");
  if (n["timeout"])
    if (auto t = ctx.duration(n["timeout"], "poll.timeout")) p.timeout = *t;
  if (n["interval"])
    if (auto t = ctx.duration(n["interval"], "poll.interval")) p.interval = *t;
  return p;
}

// `query: SOQL` or `query: {soql, all, version}`.
QueryStep load_query(LoadContext& ctx, const YAML::Node& n, const std::set<std::string>& defined) {
  QueryStep q;
  q.pos = ctx.pos(n);
  // A copy, never assigned to: assigning a yaml-cpp node rewrites the node
  // it refers to.
  const YAML::Node text = n.IsMap() ? n["soql"] : n;
  if (n.IsMap()) {
    ctx.check_keys(n, {"soql", "all", "version"}, "query");
    if (!text) ctx.error(n, "query needs soql: the SOQL text, e.g. SELECT Id FROM Contact");
    if (n["all"])
      if (auto a = ctx.boolean(n["all"], "query.all")) q.all = *a;
    if (n["version"]) {
      q.version = ctx.string(n["version"], "query.version").value_or("");
      static const std::regex version(R"(^[0-9]{2}\.0$)");
      if (!std::regex_match(q.version, version))
        ctx.error(n["version"], "query.version is an API version such as 59.0");
    }
  }
  if (!text) return q;
  if (auto s = ctx.string(text, "query")) q.soql = *s;
  if (q.soql.find_first_not_of(" \t\r\n") == std::string::npos)
    ctx.error(text, "query is SOQL text, e.g. SELECT Id FROM Contact WHERE Email = '${email}'");
  ctx.check_refs_text(q.soql, text, defined);
  return q;
}

std::string default_name(const Step& s) {
  switch (s.kind) {
    case StepKind::kRequest: {
      const auto& r = std::get<RequestStep>(s.body).request;
      return r.method + " " + r.path;
    }
    case StepKind::kPoll: {
      const auto& r = std::get<PollStep>(s.body).request;
      return "poll " + r.method + " " + r.path;
    }
    case StepKind::kAwaitWebhook: {
      const auto& a = std::get<AwaitWebhookStep>(s.body);
      return "await webhook " + (a.type.is_string() ? a.type.get<std::string>() : a.type.dump());
    }
    case StepKind::kPsp:
      return "psp " + std::get<PspStep>(s.body).outcome;
    case StepKind::kClock: {
      const auto& c = std::get<ClockStep>(s.body);
      return c.advance.empty() ? "clock set " + c.set : "clock advance " + c.advance;
    }
    case StepKind::kQuery: {
      const auto& q = std::get<QueryStep>(s.body);
      return (q.all ? "queryAll " : "query ") + q.soql;
    }
    case StepKind::kBulk: {
      const auto& b = std::get<BulkStep>(s.body);
      return "bulk " + b.operation + " " + b.object + (b.abort ? " (aborted)" : "");
    }
  }
  return "step";
}

}  // namespace

std::optional<Step> load_step(LoadContext& ctx, const YAML::Node& node, size_t index,
                              std::set<std::string>& defined) {
  const std::string where = "step " + std::to_string(index + 1);
  if (!ctx.expect_map(node, where)) return std::nullopt;
  std::vector<std::string> kinds;
  for (const auto& kv : node)
    if (kv.first.IsScalar() && kKinds.count(kv.first.Scalar())) kinds.push_back(kv.first.Scalar());
  if (kinds.size() != 1) {
    ctx.error(node,
              where + (kinds.empty() ? " has no kind" : " has several kinds") +
                  ": a step has exactly one of request, await_webhook, psp, clock, poll, query, "
                  "bulk");
    ctx.check_keys(node,
                   {"name", "request", "expect", "capture", "await_webhook", "psp", "clock", "poll",
                    "query", "bulk"},
                   where);
    return std::nullopt;
  }
  Step s;
  s.pos = ctx.pos(node);
  const std::string kind = kinds[0];
  std::set<std::string> allowed = {"name", kind};
  if (kind == "request" || kind == "psp" || kind == "query" || kind == "bulk")
    allowed.insert("expect");
  if (kind != "clock") allowed.insert("capture");
  ctx.check_keys(node, allowed, where + " (" + kind + ")");
  if (node["name"]) s.name = ctx.string(node["name"], "name").value_or("");

  if (kind == "request") {
    s.kind = StepKind::kRequest;
    RequestStep r;
    r.request = load_request(ctx, node["request"], defined);
    if (node["expect"]) r.expect = load_expect(ctx, node["expect"], defined, "expect");
    s.body = std::move(r);
  } else if (kind == "await_webhook") {
    s.kind = StepKind::kAwaitWebhook;
    s.body = load_await(ctx, node["await_webhook"], defined);
  } else if (kind == "psp") {
    s.kind = StepKind::kPsp;
    PspStep p = load_psp(ctx, node["psp"], defined);
    if (node["expect"]) {
      p.expect = load_expect(ctx, node["expect"], defined, "expect");
      p.expect->contract = false;  // the admin API has no contract
    }
    s.body = std::move(p);
  } else if (kind == "clock") {
    s.kind = StepKind::kClock;
    s.body = load_clock(ctx, node["clock"], defined);
  } else if (kind == "query") {
    s.kind = StepKind::kQuery;
    QueryStep q = load_query(ctx, node["query"], defined);
    if (node["expect"]) q.expect = load_expect(ctx, node["expect"], defined, "expect");
    s.body = std::move(q);
  } else if (kind == "bulk") {
    s.kind = StepKind::kBulk;
    BulkStep b = load_bulk(ctx, node["bulk"], defined);
    if (node["expect"]) b.expect = load_expect(ctx, node["expect"], defined, "expect");
    s.body = std::move(b);
  } else {
    s.kind = StepKind::kPoll;
    s.body = load_poll(ctx, node["poll"], defined);
  }
  if (node["capture"]) s.captures = load_captures(ctx, node["capture"]);
  for (const auto& c : s.captures) defined.insert(c.var);
  if (s.name.empty()) s.name = default_name(s);
  return s;
}

}  // namespace runner
