#include "commands/explore/operation_rows.h"

namespace runner::explore {

namespace {

using nlohmann::json;

std::string bulk_text(const json& body, const char* key, const std::string& otherwise) {
  const auto it = body.is_object() ? body.find(key) : body.end();
  return it != body.end() && it->is_string() ? it->get<std::string>() : otherwise;
}

char bulk_delimiter(const std::string& name) {
  static const std::vector<std::pair<std::string, char>> names = {
      {"COMMA", ','},     {"TAB", '\t'},  {"PIPE", '|'},
      {"SEMICOLON", ';'}, {"CARET", '^'}, {"BACKQUOTE", '`'}};
  for (const auto& [n, c] : names)
    if (n == name) return c;
  return ',';
}

// Accounts for the job the case made, in its delimiter and line ending; an
// upsert's rows carry its external id field.
std::string bulk_csv_accounts(BuildContext& c) {
  const json& job = c.sent["createIngestJob"];
  const char d = bulk_delimiter(bulk_text(job, "columnDelimiter", "COMMA"));
  const std::string le = bulk_text(job, "lineEnding", "LF") == "CRLF" ? "\r\n" : "\n";
  const std::string key = bulk_text(job, "externalIdFieldName", "");
  std::string extra;
  if (!c.facts.account_fields.empty()) extra = c.rng.pick(c.facts.account_fields).name;
  if (extra == key) extra.clear();
  std::string csv = "Name" + (extra.empty() ? "" : std::string(1, d) + extra) +
                    (key.empty() ? "" : std::string(1, d) + key) + le;
  const size_t rows = 1 + c.rng.below(3);
  for (size_t i = 0; i < rows; ++i) {
    csv += "\"Explore Bulk " + c.tag + "-" + std::to_string(i) + "\"";
    if (!extra.empty()) csv += std::string(1, d) + "B" + c.tag + "-" + std::to_string(i);
    if (!key.empty()) csv += std::string(1, d) + "explore-bulk-" + c.tag + "-" + std::to_string(i);
    csv += le;
  }
  return csv;
}

json bulk_body_state(const std::string& state) {
  return {{"state", state}};
}

void bulk_await(std::vector<Operation>& ops, const std::string& name, const std::string& id,
                const std::string& path, const std::string& needs) {
  Operation o = operation_row(name, id, "GET", path, needs);
  o.await = {{"state", "JobComplete"}};
  o.advances = true;
  ops.push_back(std::move(o));
}

}  // namespace

void explore_more_bulk_operations(std::vector<Operation>& ops) {
  const std::string ingest = "/services/data/v{api}/jobs/ingest";
  const std::string query = "/services/data/v{api}/jobs/query";
  const std::string job = ingest + "/${ingest_job}";
  Operation upload = operation_row("uploadIngestJob", "putIngestJobBatches", "PUT",
                                   job + "/batches", "ingest_job");
  upload.raw = bulk_csv_accounts;
  upload.content_type = "text/csv";
  upload.advances = true;
  ops.push_back(std::move(upload));
  Operation close = operation_row("closeIngestJob", "patchIngestJob", "PATCH", job, "ingest_job");
  close.body = [](BuildContext&) { return bulk_body_state("UploadComplete"); };
  close.counts = {"Account"};
  close.advances = true;
  ops.push_back(std::move(close));
  bulk_await(ops, "awaitIngestJob", "getIngestJob", job, "ingest_job");
  ops.push_back(operation_row("ingestSuccessfulResults", "getIngestJobSuccessfulResults", "GET",
                              job + "/successfulResults", "ingest_job"));
  ops.push_back(operation_row("ingestFailedResults", "getIngestJobFailedResults", "GET",
                              job + "/failedResults", "ingest_job"));
  ops.push_back(operation_row("ingestUnprocessedRecords", "getIngestJobUnprocessedRecords", "GET",
                              job + "/unprocessedrecords", "ingest_job"));
  Operation remove =
      operation_row("deleteIngestJob", "deleteIngestJob", "DELETE", job, "ingest_job");
  remove.ends = true;
  ops.push_back(std::move(remove));
  ops.push_back(operation_row("listIngestJobs", "getIngestJobs", "GET", ingest, ""));
  ops.push_back(operation_row("listQueryJobs", "getQueryJobs", "GET", query, ""));
  bulk_await(ops, "awaitQueryJob", "getQueryJob", query + "/${query_job}", "query_job");
  Operation results = operation_row("queryJobResults", "getQueryJobResults", "GET",
                                    query + "/${query_job}/results", "query_job");
  results.query = {{"maxRecords", "1000"}};
  ops.push_back(std::move(results));
  Operation drop = operation_row("deleteQueryJob", "deleteQueryJob", "DELETE",
                                 query + "/${query_job}", "query_job");
  drop.ends = true;
  ops.push_back(std::move(drop));
}

void explore_identity_operations(std::vector<Operation>& ops) {
  for (const std::string method : {"GET", "POST"}) {
    const std::string suffix = method == "GET" ? "" : "ByPost";
    ops.push_back(operation_row("userInfo" + suffix,
                                method == "GET" ? "getUserInfo" : "postUserInfo", method,
                                "/services/oauth2/userinfo", ""));
    ops.push_back(operation_row("identity" + suffix,
                                method == "GET" ? "getIdentity" : "postIdentity", method,
                                "/id/${org_id}/${user_id}", "user_id"));
  }
}

}  // namespace runner::explore
