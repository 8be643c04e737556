// Bulk API 2.0 under /services/data/vNN.0/jobs: ingest jobs (create, PUT the
// CSV, close or abort, results) and query jobs (create, state, results as
// CSV pages), thin over domain/bulk/bulk_jobs.h. Errors are the platform's
// Bulk list [{"errorCode", "message"}].
#include <memory>
#include <string>

#include "data_api.h"
#include "domain/bulk/bulk_jobs.h"

namespace fake_org::http {

namespace {

constexpr const char* kBulkCsv = "text/csv";

void bulk_send_bulk_error(httplib::Response& res, const bulk::BulkError& e) {
  const int status = e.kind == bulk::BulkError::Kind::kNotFound      ? 404
                     : e.kind == bulk::BulkError::Kind::kNotComplete ? 412
                                                                     : 400;
  send_data_json(res, status,
                 nlohmann::ordered_json::array(
                     {nlohmann::ordered_json{{"errorCode", e.code}, {"message", e.message}}}));
}

template <typename T>
bool bulk_failed(httplib::Response& res, const bulk::BulkResult<T>& r) {
  if (r.ok()) return false;
  bulk_send_bulk_error(res, r.error());
  return true;
}

void bulk_send_info(httplib::Response& res, const bulk::BulkResult<nlohmann::ordered_json>& r) {
  if (!bulk_failed(res, r)) send_data_json(res, 200, *r);
}

// The JSON body, or the data API's JSON_PARSER_ERROR.
bool bulk_read_body(Call& c, nlohmann::json& out) {
  auto body = data_body(c.req);
  if (!body.ok()) {
    send_data_errors(c.res, body.errors());
    return false;
  }
  out = std::move(*body);
  return true;
}

bulk::JobKind bulk_kind_of(bool ingest) {
  return ingest ? bulk::JobKind::kIngest : bulk::JobKind::kQuery;
}

// What both kinds of job answer alike: one job, its state, delete, list.
void bulk_add_job_handlers(Handlers& handlers, const DataContext& ctx,
                           const std::shared_ptr<bulk::BulkJobs>& jobs, bool ingest) {
  const std::string noun = ingest ? "IngestJob" : "QueryJob";
  handlers.on("get" + noun, [ctx, jobs, ingest](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      bulk_send_info(c.res, jobs->info(bulk_kind_of(ingest), c.params["jobId"]));
    });
  });
  handlers.on("patch" + noun, [ctx, jobs, ingest](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      nlohmann::json body;
      if (bulk_read_body(c, body))
        bulk_send_info(c.res, jobs->change_state(bulk_kind_of(ingest), c.params["jobId"], body));
    });
  });
  handlers.on("delete" + noun, [ctx, jobs, ingest](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      if (!bulk_failed(c.res, jobs->remove(bulk_kind_of(ingest), c.params["jobId"])))
        c.res.status = 204;
    });
  });
  handlers.on("get" + noun + "s", [ctx, jobs, ingest](Call& c) {
    with_version(ctx, c, [&](const std::string& version) {
      bulk_send_info(c.res,
                     jobs->list(bulk_kind_of(ingest), c.req.get_param_value("queryLocator"),
                                c.req.get_param_value("jobType"),
                                c.req.get_param_value("isPkChunkingEnabled") == "true", version));
    });
  });
}

void bulk_add_ingest_handlers(Handlers& handlers, const DataContext& ctx,
                              const std::shared_ptr<bulk::BulkJobs>& jobs) {
  handlers.on("postIngestJob", [ctx, jobs](Call& c) {
    with_version(ctx, c, [&](const std::string& version) {
      nlohmann::json body;
      if (bulk_read_body(c, body)) bulk_send_info(c.res, jobs->create_ingest(body, version));
    });
  });
  handlers.on("putIngestJobBatches", [ctx, jobs](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      // The body is the job's from here on: moved, never copied.
      auto& body = const_cast<httplib::Request&>(c.req).body;
      if (!bulk_failed(c.res, jobs->upload(c.params["jobId"], std::move(body)))) c.res.status = 201;
    });
  });
  const std::pair<const char*, bulk::IngestResults> results[] = {
      {"getIngestJobSuccessfulResults", bulk::IngestResults::kSuccessful},
      {"getIngestJobFailedResults", bulk::IngestResults::kFailed},
      {"getIngestJobUnprocessedRecords", bulk::IngestResults::kUnprocessed}};
  for (const auto& [op, which] : results) {
    handlers.on(op, [ctx, jobs, which = which](Call& c) {
      with_version(ctx, c, [&](const std::string&) {
        auto csv = jobs->ingest_results(c.params["jobId"], which);
        if (bulk_failed(c.res, csv)) return;
        c.res.status = 200;
        c.res.set_content(std::move(*csv), kBulkCsv);
      });
    });
  }
}

void bulk_add_query_job_handlers(Handlers& handlers, const DataContext& ctx,
                                 const std::shared_ptr<bulk::BulkJobs>& jobs) {
  handlers.on("postQueryJob", [ctx, jobs](Call& c) {
    with_version(ctx, c, [&](const std::string& version) {
      nlohmann::json body;
      if (bulk_read_body(c, body)) bulk_send_info(c.res, jobs->create_query(body, version));
    });
  });
  handlers.on("getQueryJobResults", [ctx, jobs](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      auto page = jobs->query_results(c.params["jobId"], c.req.get_param_value("locator"),
                                      c.req.get_param_value("maxRecords"));
      if (bulk_failed(c.res, page)) return;
      c.res.status = 200;
      c.res.set_header("Sforce-Locator", page->next_locator);
      c.res.set_header("Sforce-NumberOfRecords", std::to_string(page->records));
      c.res.set_content(std::move(page->csv), kBulkCsv);
    });
  });
}

}  // namespace

// POST/GET jobs/ingest, GET/PATCH/DELETE jobs/ingest/{jobId}, PUT .../batches,
// GET .../successfulResults, failedResults, unprocessedrecords; the same for
// jobs/query with GET .../results.
FAKE_ORG_HANDLERS(bulk) {
  const DataContext ctx = data_context(context);
  // build_org makes every org's; without it the rows stay unbound and the
  // server refuses to start, naming them.
  std::shared_ptr<bulk::BulkJobs> jobs = context.services.bulk;
  if (!jobs) return;
  bulk_add_job_handlers(handlers, ctx, jobs, true);
  bulk_add_job_handlers(handlers, ctx, jobs, false);
  bulk_add_ingest_handlers(handlers, ctx, jobs);
  bulk_add_query_job_handlers(handlers, ctx, jobs);
}

}  // namespace fake_org::http
