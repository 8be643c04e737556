#include "bulk_jobs.h"

#include <chrono>
#include <utility>

#include "bulk_saved.h"
#include "domain/config/org_config.h"
#include "domain/core/ids.h"
#include "domain/store/org_state.h"
#include "util/ascii.h"

namespace fake_org::bulk {

namespace {

BulkError bulk_invalid_job(std::string message) {
  return BulkError{BulkError::Kind::kInvalid, "INVALIDJOB", "InvalidJob : " + std::move(message)};
}

BulkError bulk_invalid_state(std::string message) {
  return BulkError{BulkError::Kind::kInvalid, "INVALIDJOBSTATE", std::move(message)};
}

BulkError bulk_job_not_found() {
  return BulkError{BulkError::Kind::kNotFound, "NOT_FOUND",
                   "The requested resource does not exist"};
}

// A string member of the body: nullopt when absent; `bad` set when present
// but not a string.
std::optional<std::string> bulk_text_member(const nlohmann::json& body, const char* name,
                                            bool& bad) {
  auto it = body.find(name);
  if (it == body.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) {
    bad = true;
    return std::nullopt;
  }
  return it->get<std::string>();
}

// columnDelimiter, lineEnding and contentType, which both kinds of job take.
std::optional<BulkError> read_format_impl(const nlohmann::json& body, Job& job) {
  bool bad = false;
  auto delimiter = bulk_text_member(body, "columnDelimiter", bad);
  auto ending = bulk_text_member(body, "lineEnding", bad);
  auto content = bulk_text_member(body, "contentType", bad);
  if (bad) return bulk_invalid_job("columnDelimiter, lineEnding and contentType must be strings");
  if (delimiter) {
    auto d = delimiter_named(*delimiter);
    if (!d)
      return bulk_invalid_job("Invalid column delimiter: " + *delimiter +
                              " (one of COMMA, TAB, PIPE, SEMICOLON, CARET, BACKQUOTE)");
    job.delimiter = *d;
  }
  if (ending) {
    auto e = line_ending_named(*ending);
    if (!e) return bulk_invalid_job("Invalid line ending: " + *ending + " (LF or CRLF)");
    job.line_ending = *e;
  }
  if (content && *content != "CSV")
    return bulk_invalid_job("Invalid content type: " + *content + " (Bulk API 2.0 takes CSV only)");
  return std::nullopt;
}

}  // namespace

std::optional<BulkError> read_format_of_query(const nlohmann::json& body, Job& job) {
  return read_format_impl(body, job);
}

BulkJobs::BulkJobs(std::shared_ptr<Org> org)
    : org_(std::move(org)), processing_ms_(org_->config().org.bulk_processing_time.count()) {}

BulkJobs::~BulkJobs() {
  std::thread worker;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    for (auto& job : queue_) job->stop = true;
    for (auto& [id, job] : by_id_) job->stop = true;
    worker = std::move(worker_);
  }
  if (worker.joinable()) worker.join();
}

std::shared_ptr<Job> BulkJobs::new_job(JobKind kind, const std::string& api_version) {
  auto job = std::make_shared<Job>();
  job->kind = kind;
  job->id = org_->ids().record_id("750");
  job->api_version = api_version;
  job->created_by = org_->config().auth.integration_user().id;
  job->created = org_->clock().now();
  job->modified = job->created;
  return job;
}

void BulkJobs::add(const std::shared_ptr<Job>& job) {
  std::lock_guard lock(mu_);
  job->sequence = next_sequence_++;
  (job->kind == JobKind::kIngest ? ingest_jobs_ : query_jobs_)[job->sequence] = job;
  by_id_[job->id] = job;
}

std::shared_ptr<Job> BulkJobs::find(JobKind kind, std::string_view id) const {
  auto id18 = to_id18(id);
  if (!id18) return nullptr;
  std::lock_guard lock(mu_);
  auto it = by_id_.find(*id18);
  if (it == by_id_.end() || it->second->kind != kind) return nullptr;
  return it->second;
}

BulkResult<nlohmann::ordered_json> BulkJobs::create_ingest(const nlohmann::json& body,
                                                           const std::string& api_version) {
  if (!body.is_object()) return bulk_invalid_job("the body must be a JSON object");
  bool bad = false;
  auto object = bulk_text_member(body, "object", bad);
  auto operation = bulk_text_member(body, "operation", bad);
  auto external = bulk_text_member(body, "externalIdFieldName", bad);
  if (bad) return bulk_invalid_job("object, operation and externalIdFieldName must be strings");
  if (!object || object->empty())
    return bulk_invalid_job("Object name is required: set \"object\"");
  const ObjectDef* def = org_->config().object(*object);
  if (!def) return bulk_invalid_job("Unable to find object: " + *object);
  if (!operation)
    return bulk_invalid_job("Operation is required: insert, update, upsert, delete or hardDelete");
  auto op = ingest_operation_named(*operation);
  if (!op)
    return bulk_invalid_job("Invalid operation: " + *operation +
                            " (insert, update, upsert, delete or hardDelete)");
  std::string external_field;
  if (*op == Operation::kUpsert) {
    if (!external || external->empty())
      return bulk_invalid_job("External ID was blank for " + def->api_name +
                              ". An External ID must be specified for upsert.");
    const bool is_id = iequals(*external, "Id");
    const FieldDef* f = is_id ? nullptr : def->field(*external);
    if (!is_id && (!f || !f->external_id))
      return bulk_invalid_job(
          "Field name provided, " + *external +
          " does not match an External ID, Salesforce Id, or indexed field for " + def->api_name);
    external_field = f ? f->name : "Id";
  }
  // The format is read before the job takes an id: a refused create uses
  // none of the org's id sequence.
  Job format;
  if (auto e = read_format_impl(body, format)) return *e;
  auto job = new_job(JobKind::kIngest, api_version);
  job->delimiter = format.delimiter;
  job->line_ending = format.line_ending;
  job->object = def->api_name;
  job->operation = *op;
  job->external_id_field = external_field;
  add(job);
  std::lock_guard lock(job->mu);
  keep(*job);
  return job_info(*job, org_->clock().now(), false);
}

BulkResult<BulkDone> BulkJobs::upload(std::string_view id, std::string csv) {
  auto job = find(JobKind::kIngest, id);
  if (!job) return bulk_job_not_found();
  std::lock_guard lock(job->mu);
  if (job->state != JobState::kOpen)
    return bulk_invalid_state("Job " + job->id + " is " + to_string(job->state) +
                              ": data can be uploaded only while the job is Open");
  // The platform takes one upload per job and refuses to close a job that
  // had more (change_state).
  if (job->uploads++ == 0) {
    job->upload = std::move(csv);
    if (const auto& sink = org_->state()) sink->put(saved_kind::kUpload, job->id, job->upload);
  }
  job->modified = org_->clock().now();
  keep(*job);
  return BulkDone{};
}

BulkResult<nlohmann::ordered_json> BulkJobs::info(JobKind kind, std::string_view id) const {
  auto job = find(kind, id);
  if (!job) return bulk_job_not_found();
  std::lock_guard lock(job->mu);
  return job_info(*job, org_->clock().now(), true);
}

}  // namespace fake_org::bulk
