// A bulk step runs a Bulk API 2.0 ingest job from start to end: create it,
// upload the CSV, close (or abort) it, wait until it ends, then check the
// job and the result CSVs asked for. A failure names the stage it met.
#include "net/interrupt.h"
#include "steps/expectation.h"
#include "steps/http_exchange.h"

namespace runner {
namespace {

constexpr Millis kRequestTimeout{60000};
// Between two reads of a job's state: short, as the fake ends most jobs in
// milliseconds; a sandbox's job takes seconds whatever the interval.
constexpr Millis kFirstWait{50};
constexpr Millis kLongestWait{1000};

struct Stage {
  SentRequest sent;
  std::vector<Failure> failures;
};

// The request, sent as built (a CSV of 10,000 lines is not interpolated twice).
SentRequest send_built(StepContext& ctx, const std::string& method, const std::string& path,
                       const std::string& content_type, std::string body) {
  HttpRequest req;
  req.method = method;
  req.url = ctx.org.url_for(path);
  req.headers.emplace_back("Accept", "application/json");
  if (!body.empty()) req.headers.emplace_back("Content-Type", content_type);
  req.body = std::move(body);
  return ctx.org.send(std::move(req), true, kRequestTimeout);
}

// The stage's answer checked against `expect`, its contract too; each
// failure's message says which stage it is.
Stage checked_stage(StepContext& ctx, SentRequest sent, const Expectation& expect,
                    const std::string& stage) {
  Stage out{std::move(sent), {}};
  out.failures = check_expectation(expect, ctx.interp(), out.sent.response);
  if (expect.contract)
    if (auto f = check_contract(ctx.checker, out.sent.request, out.sent.response))
      out.failures.push_back(std::move(*f));
  for (auto& f : out.failures) f.message = stage + ": " + f.message;
  return out;
}

std::string csv_body(const BulkStep& step, StepContext& ctx) {
  const std::string eol = step.line_ending == "CRLF" ? "\r\n" : "\n";
  Variables numbered = ctx.vars;  // `${i}` for the repeated lines only
  std::string out;
  for (const auto& part : step.data) {
    if (part.literal) {
      out += part.text;
    } else if (part.repeat == 0) {
      out += ctx.interp().text(part.text);
    } else {
      const Interpolator in(numbered, ctx.builtins);
      for (long k = 0; k < part.repeat; ++k) {
        numbered["i"] = part.from + k;
        out += in.text(part.text) + eol;
      }
    }
  }
  return out;
}

nlohmann::json job_request(const BulkStep& step, const Interpolator& in) {
  nlohmann::json job = {
      {"object", in.text(step.object)}, {"operation", step.operation}, {"contentType", "CSV"}};
  if (!step.external_id.empty()) job["externalIdFieldName"] = step.external_id;
  if (!step.delimiter.empty()) job["columnDelimiter"] = step.delimiter;
  if (!step.line_ending.empty()) job["lineEnding"] = step.line_ending;
  return job;
}

// Reads the job until it ends (JobComplete, Failed, Aborted) or the step's
// time runs out; the last answer.
Stage wait_for_job(const BulkStep& step, StepContext& ctx, const std::string& path, int& reads) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + step.timeout;
  Millis wait = kFirstWait;
  while (true) {
    ++reads;
    SentRequest sent = send_built(ctx, "GET", path, "", "");
    auto j = sent.response.json();
    const std::string state = j && j->is_object() ? j->value("state", "") : "";
    if (sent.response.status != 200 || state == "JobComplete" || state == "Failed" ||
        state == "Aborted")
      return {std::move(sent), {}};
    if (clock::now() + wait > deadline)
      return {std::move(sent),
              {{"timeout",
                "the job is still " + state + " after " + std::to_string(step.timeout.count()) +
                    " ms (" + std::to_string(reads) + " reads)",
                {},
                ""}}};
    if (interrupt::wait(wait))
      return {std::move(sent),
              {{"interrupted",
                "interrupted by " + interrupt::received_name() + " while the job was " + state,
                {},
                ""}}};
    wait = std::min(kLongestWait, wait * 2);
  }
}

// The job as it ended, checked: the step's expect, or by default the state
// the step asked for (JobComplete, or Aborted).
Stage check_job(const BulkStep& step, StepContext& ctx, Stage ended) {
  if (!ended.failures.empty()) return ended;
  Expectation expect = step.expect;
  if (!expect.json) {
    expect.json = nlohmann::json{{"state", step.abort ? "Aborted" : "JobComplete"}};
    expect.json_pos = step.pos;
  }
  return checked_stage(ctx, std::move(ended.sent), expect, "the ended job");
}

}  // namespace

void run_bulk_step(const BulkStep& step, StepContext& ctx, StepResult& out) {
  const std::string version = step.version.empty() ? ctx.org.config().api_version : step.version;
  const std::string jobs = "/services/data/v" + version + "/jobs/ingest";
  const Expectation any2xx;  // each stage before the end must succeed
  std::string id;
  int reads = 0;
  auto run = [&](Stage stage) {
    out.exchange = to_exchange(stage.sent);
    out.failures = std::move(stage.failures);
    return out.failures.empty();
  };
  Stage created = checked_stage(
      ctx,
      send_built(ctx, "POST", jobs, "application/json", job_request(step, ctx.interp()).dump()),
      any2xx, "create the job");
  if (!run(std::move(created))) return;
  if (auto j = out.exchange->response->json(); j && j->contains("id") && (*j)["id"].is_string())
    id = (*j)["id"].get<std::string>();
  if (id.empty()) {
    out.failures.push_back({"error", "create the job: the answer has no id", {}, ""});
    return;
  }
  const std::string job = jobs + "/" + id;
  std::string csv = csv_body(step, ctx);
  const size_t bytes = csv.size();
  if (!run(checked_stage(ctx, send_built(ctx, "PUT", job + "/batches", "text/csv", std::move(csv)),
                         any2xx, "upload the CSV")))
    return;
  const nlohmann::json close = {{"state", step.abort ? "Aborted" : "UploadComplete"}};
  if (!run(checked_stage(ctx, send_built(ctx, "PATCH", job, "application/json", close.dump()),
                         any2xx, step.abort ? "abort the job" : "close the job")))
    return;
  const bool ended = run(check_job(step, ctx, wait_for_job(step, ctx, job, reads)));
  const Exchange job_exchange = *out.exchange;
  auto j = job_exchange.response->json().value_or(nlohmann::json::object());
  out.detail = id + " " + j.value("state", "?") + " after " + std::to_string(reads) + " read" +
               (reads == 1 ? "" : "s") + ": " +
               std::to_string(j.value("numberRecordsProcessed", 0)) + " processed, " +
               std::to_string(j.value("numberRecordsFailed", 0)) + " failed, " +
               std::to_string(bytes) + " bytes uploaded";
  if (!ended) return;
  const std::pair<const std::optional<Expectation>*, const char*> results[] = {
      {&step.successful, "successfulResults"},
      {&step.failed, "failedResults"},
      {&step.unprocessed, "unprocessedrecords"}};
  for (const auto& [expect, name] : results) {
    if (!*expect) continue;
    if (!run(checked_stage(ctx, send_built(ctx, "GET", job + "/" + name, "", ""), **expect,
                           std::string(name))))
      return;
  }
  out.exchange = job_exchange;  // captures read the ended job ($.id, $.numberRecordsFailed)
}

}  // namespace runner
