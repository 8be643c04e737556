#include "eval/soql_text.h"
#include "net/http_types.h"
#include "steps/expectation.h"
#include "steps/http_exchange.h"

namespace runner {
namespace {

// More batches than any scenario needs (2,000 records each): a bound against
// an org whose nextRecordsUrl never ends.
constexpr int kMaxBatches = 500;
constexpr Millis kTimeout{30000};

SentRequest get(StepContext& ctx, const std::string& path) {
  HttpRequest req;
  req.method = "GET";
  req.url = ctx.org.url_for(path);
  req.headers.emplace_back("Accept", "application/json");
  return ctx.org.send(std::move(req), true, kTimeout);
}

// A query result's body, or null when the answer is not one (which the
// expectation then reports against the answer as it is).
nlohmann::json result_body(const HttpResponse& response) {
  if (response.status != 200) return nullptr;
  auto j = response.json();
  if (!j || !j->is_object() || !j->contains("records")) return nullptr;
  return std::move(*j);
}

// The next batch's path, or "" when the result is complete.
std::string next_batch(const nlohmann::json& body) {
  const auto next = body.find("nextRecordsUrl");
  if (body.value("done", true) || next == body.end() || !next->is_string()) return "";
  return next->get<std::string>();
}

}  // namespace

// Sends the query, follows nextRecordsUrl to the last batch, and checks the
// expectation against one answer holding every record (done: true), as
// jsforce's autoFetch shows it. Each batch is checked against its contract.
void run_query_step(const QueryStep& step, StepContext& ctx, StepResult& out) {
  const std::string version = step.version.empty() ? ctx.org.config().api_version : step.version;
  const std::string path = "/services/data/v" + version + (step.all ? "/queryAll" : "/query") +
                           "?" + encode_form({{"q", soql_text(ctx.interp(), step.soql)}});
  SentRequest sent = get(ctx, path);
  out.exchange = to_exchange(sent);
  nlohmann::json merged = result_body(sent.response);
  int batches = 1;
  while (true) {
    if (step.expect.contract)
      if (auto f = check_contract(ctx.checker, sent.request, sent.response)) {
        out.exchange = to_exchange(sent);
        out.failures.push_back(std::move(*f));
        return;
      }
    const std::string next = merged.is_null() ? "" : next_batch(merged);
    if (next.empty()) break;
    if (++batches > kMaxBatches) {
      out.failures.push_back({"error",
                              "more than " + std::to_string(kMaxBatches) +
                                  " batches: the org's nextRecordsUrl does not end",
                              {},
                              ""});
      return;
    }
    sent = get(ctx, next);
    nlohmann::json batch = result_body(sent.response);
    if (batch.is_null()) {  // a batch that failed is the answer to look at
      out.exchange = to_exchange(sent);
      merged = nullptr;
      continue;
    }
    for (auto& r : batch["records"]) merged["records"].push_back(std::move(r));
    merged["done"] = batch.value("done", true);
    if (batch.contains("nextRecordsUrl"))
      merged["nextRecordsUrl"] = batch["nextRecordsUrl"];
    else
      merged.erase("nextRecordsUrl");
  }
  HttpResponse& answer = *out.exchange->response;
  if (batches > 1 && !merged.is_null()) answer.body = merged.dump();
  out.detail = std::to_string(answer.status) + ", " + std::to_string(batches) +
               (batches == 1 ? " batch" : " batches");
  out.failures = check_expectation(step.expect, ctx.interp(), answer);
}

}  // namespace runner
