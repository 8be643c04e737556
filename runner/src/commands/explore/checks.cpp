#include "commands/explore/checks.h"

#include "checker/routes.h"

namespace runner::explore {

namespace {

std::string explore_path_of(const std::string& url) {
  std::string p = url;
  const size_t scheme = p.find("://");
  if (scheme != std::string::npos) {
    const size_t slash = p.find('/', scheme + 3);
    p = slash == std::string::npos ? "/" : p.substr(slash);
  }
  const size_t q = p.find('?');
  return q == std::string::npos ? p : p.substr(0, q);
}

bool explore_answered(const StepView& v) {
  return v.response != nullptr && v.request != nullptr;
}

bool explore_in_contract(const StepView& v) {
  return explore_answered(v) && !declared_statuses(v.request->method, v.request->url).empty();
}

std::optional<std::string> explore_no_5xx(const StepView& v) {
  if (v.response->status < 500) return std::nullopt;
  return "answered " + std::to_string(v.response->status) + ": " + v.response->body.substr(0, 200);
}

std::optional<std::string> explore_declared(const StepView& v) {
  const int s = v.response->status;
  if (s >= 500) return std::nullopt;  // no_5xx says so
  const auto declared = declared_statuses(v.request->method, v.request->url);
  for (int d : declared)
    if (d == s) return std::nullopt;
  std::string list;
  for (int d : declared) list += (list.empty() ? "" : ", ") + std::to_string(d);
  return "answered " + std::to_string(s) + ", which the route table does not declare (" + list +
         ")";
}

bool explore_contract_applies(const StepView& v) {
  return explore_in_contract(v) && v.checker;
}

std::optional<std::string> explore_contract(const StepView& v) {
  nlohmann::json body = nullptr;
  if (!v.response->body.empty()) {
    body = nlohmann::json::parse(v.response->body, nullptr, false);
    if (body.is_discarded()) return std::nullopt;  // text answers: no schema to break
  }
  const auto r =
      v.checker->check_response(v.request->method, v.request->url, v.response->status, body);
  std::string out;
  for (const auto& viol : r.violations)
    if (viol.keyword != "status") out += (out.empty() ? "" : "\n") + viol.message;
  if (out.empty()) return std::nullopt;
  return "schema " + r.schema + ": " + out;
}

bool explore_valid_applies(const StepView& v) {
  return explore_answered(v) && v.c.mutation.empty() && !v.meta.op.empty();
}

// The older POST /Payment refuses with 200 and `IsSuccess: false` (spec 4.7).
bool explore_refused_in_body(const std::string& body) {
  const auto j = nlohmann::json::parse(body, nullptr, false);
  return j.is_object() && j.contains("IsSuccess") && j["IsSuccess"] == false;
}

std::optional<std::string> explore_valid_accepted(const StepView& v) {
  const int s = v.response->status;
  if (s >= 200 && s < 300 && !explore_refused_in_body(v.response->body)) return std::nullopt;
  return "a valid request answered " + std::to_string(v.response->status) + ": " +
         v.response->body.substr(0, 300);
}

// A rule step fails when its expectation does (the run already matched it).
std::optional<std::string> explore_rule_failed(const StepView& v) {
  for (const auto& f : v.result.failures)
    if (f.kind == "json") return f.message.substr(0, 400);
  return std::nullopt;
}

template <const char* kRule>
bool explore_rule_applies(const StepView& v) {
  if (v.meta.rule != kRule || v.result.outcome == Outcome::kSkipped) return false;
  return true;
}

bool explore_refused_applies(const StepView& v) {
  return v.meta.rule == "refused_write_unchanged" && v.result.outcome != Outcome::kSkipped &&
         v.focus_status >= 400 && v.focus_status < 500;
}

// A valid case's wait for a Bulk job (a poll step, no request judged alone).
bool explore_await_applies(const StepView& v) {
  return v.result.kind == StepKind::kPoll && v.c.mutation.empty() &&
         v.result.outcome != Outcome::kSkipped;
}

std::optional<std::string> explore_job_completes(const StepView& v) {
  if (v.result.outcome != Outcome::kFailed) return std::nullopt;
  std::string why = v.result.detail;
  for (const auto& f : v.result.failures) why += (why.empty() ? "" : ": ") + f.message;
  return "the job did not reach JobComplete: " + why.substr(0, 400);
}

constexpr char kExploreIdempotent[] = "idempotent_replay";
constexpr char kExploreAmount[] = "amount_survives_read";
constexpr char kExploreWrite[] = "write_survives_read";
constexpr char kExplorePayer[] = "payer_deduplicated";
constexpr char kExplorePayerById[] = "payer_by_id";

}  // namespace

std::vector<int> declared_statuses(const std::string& method, const std::string& url) {
  const auto m = contracts::routes::match(method, explore_path_of(url));
  std::vector<int> out;
  if (!m.route) return out;
  for (const auto& [status, schema] : m.route->responses) out.push_back(status);
  for (int s : m.route->text_statuses) out.push_back(s);
  return out;
}

const std::vector<Check>& checks() {
  static const std::vector<Check> table = {
      {"no_5xx", "no answer is a 5xx", explore_answered, explore_no_5xx},
      {"declared_status", "the status is one the route table declares for the route",
       explore_in_contract, explore_declared},
      {"contract", "the answer conforms to its contract (the target's profile)",
       explore_contract_applies, explore_contract},
      {"valid_accepted", "a valid request (and every step of a valid sequence) answers 2xx",
       explore_valid_applies, explore_valid_accepted},
      {"job_completes", "a Bulk job a valid case closed (or queried) reaches JobComplete",
       explore_await_applies, explore_job_completes},
      {"refused_write_unchanged",
       "a near-miss write answered 4xx left the record counts as they were (through query)",
       explore_refused_applies, explore_rule_failed},
      {"idempotent_replay", "the same create with the same IdempotencyKey answers the same Id",
       explore_rule_applies<kExploreIdempotent>, explore_rule_failed},
      {"amount_survives_read",
       "the amount a payment intent was created with reads back (a recurring one's currency too)",
       explore_rule_applies<kExploreAmount>, explore_rule_failed},
      {"write_survives_read", "the fields a data API create or update wrote read back",
       explore_rule_applies<kExploreWrite>, explore_rule_failed},
      {"payer_deduplicated",
       "the same payer sent again with AllowDeduplication is the same contact",
       explore_rule_applies<kExplorePayer>, explore_rule_failed},
      {"payer_by_id", "a payment for a contact and an account sent by Id shows them as its payer",
       explore_rule_applies<kExplorePayerById>, explore_rule_failed},
  };
  return table;
}

const Check* find_check(const std::string& name) {
  for (const auto& c : checks())
    if (c.name == name) return &c;
  return nullptr;
}

Judgement judge_case(const Case& c, const ScenarioResult& r, const contracts::Checker* checker) {
  Judgement j;
  int focus_status = 0;
  for (size_t i = 0; i < r.steps.size() && i < c.meta.size(); ++i)
    if (c.meta[i].focus && r.steps[i].exchange && r.steps[i].exchange->response)
      focus_status = r.steps[i].exchange->response->status;
  for (size_t i = 0; i < r.steps.size() && i < c.meta.size(); ++i) {
    const StepResult& sr = r.steps[i];
    const bool has = sr.exchange && sr.exchange->response && sr.kind == StepKind::kRequest;
    StepView v{c,
               i,
               c.meta[i],
               sr,
               has ? &*sr.exchange->response : nullptr,
               has ? &sr.exchange->request : nullptr,
               checker,
               focus_status};
    for (const auto& check : checks()) {
      if (!check.applies(v)) continue;
      j.applied.push_back(check.name);
      if (auto msg = check.judge(v)) j.failures.push_back({check.name, i, *msg});
    }
  }
  return j;
}

}  // namespace runner::explore
