// BulkJobs: state changes, deletes and the worker that runs the jobs.
#include <chrono>
#include <utility>

#include "bulk_jobs.h"
#include "bulk_saved.h"
#include "domain/core/clock.h"
#include "domain/store/org_state.h"

namespace fake_org::bulk {

namespace {

BulkError bulk_state_error(std::string message) {
  return BulkError{BulkError::Kind::kInvalid, "INVALIDJOBSTATE", std::move(message)};
}

}  // namespace

BulkResult<nlohmann::ordered_json> BulkJobs::change_state(JobKind kind, std::string_view id,
                                                          const nlohmann::json& body) {
  auto job = find(kind, id);
  if (!job)
    return BulkError{BulkError::Kind::kNotFound, "NOT_FOUND",
                     "The requested resource does not exist"};
  auto it = body.is_object() ? body.find("state") : body.end();
  if (!body.is_object() || it == body.end() || !it->is_string())
    return bulk_state_error("Send {\"state\": \"UploadComplete\"} or {\"state\": \"Aborted\"}");
  const std::string wanted = it->get<std::string>();
  const TimePoint now = org_->clock().now();
  std::unique_lock lock(job->mu);
  if (wanted == "Aborted") {
    if (finished(job->state))
      return bulk_state_error("Job " + job->id + " is " + to_string(job->state) +
                              " already: only a job not finished can be aborted");
    job->state = JobState::kAborted;
    job->stop = true;
    job->modified = now;
    keep(*job);
    return job_info(*job, now, false);
  }
  if (wanted != "UploadComplete" || kind != JobKind::kIngest)
    return bulk_state_error("Invalid state: " + wanted + " (" +
                            (kind == JobKind::kIngest ? "UploadComplete or Aborted" : "Aborted") +
                            ")");
  if (job->state != JobState::kOpen)
    return bulk_state_error("Job " + job->id + " is " + to_string(job->state) +
                            ": only an Open job can be closed");
  if (job->uploads > 1)
    return BulkError{BulkError::Kind::kInvalid, "INVALIDJOB",
                     "Found multipe contents for job: <" + job->id.substr(0, 15) +
                         ">, please 'Close' / 'Abort' / 'Delete' the current Job then create a "
                         "new Job and make sure you only do 'PUT' once on a given Job."};
  job->state = JobState::kUploadComplete;
  job->modified = now;
  job->ready_at = now + processing_time();
  keep(*job);
  auto info = job_info(*job, now, false);
  lock.unlock();
  enqueue(job);
  return info;
}

BulkResult<BulkDone> BulkJobs::remove(JobKind kind, std::string_view id) {
  auto job = find(kind, id);
  if (!job)
    return BulkError{BulkError::Kind::kNotFound, "NOT_FOUND",
                     "The requested resource does not exist"};
  {
    std::lock_guard lock(job->mu);
    const JobState s = visible_state(*job, org_->clock().now());
    if (s == JobState::kOpen || s == JobState::kInProgress)
      return bulk_state_error("Job " + job->id + " is " + to_string(s) +
                              ": a job can be deleted once it is UploadComplete, JobComplete, "
                              "Aborted or Failed (abort it first)");
    job->deleted = true;
    job->stop = true;
    forget(*job);
  }
  std::lock_guard lock(mu_);
  by_id_.erase(job->id);
  (kind == JobKind::kIngest ? ingest_jobs_ : query_jobs_).erase(job->sequence);
  return BulkDone{};
}

void BulkJobs::enqueue(std::shared_ptr<Job> job) {
  std::thread finished_worker;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    queue_.push_back(std::move(job));
    if (running_) return;
    running_ = true;
    // The last worker ended (running_ was false): join it outside the lock.
    finished_worker = std::move(worker_);
    worker_ = std::thread([this] { drain(); });
  }
  if (finished_worker.joinable()) finished_worker.join();
}

// The worker: runs queued jobs until none is left, then ends.
void BulkJobs::drain() {
  while (true) {
    std::shared_ptr<Job> job;
    {
      std::lock_guard lock(mu_);
      if (queue_.empty() || stopping_) {
        running_ = false;
        queue_.clear();
        idle_cv_.notify_all();
        return;
      }
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    run(*job);
  }
}

void BulkJobs::run(Job& job) {
  {
    std::lock_guard lock(job.mu);
    if (job.stop || job.state == JobState::kAborted || job.deleted) return;
    job.state = JobState::kInProgress;
    job.modified = org_->clock().now();
    keep(job);
  }
  const auto started = std::chrono::steady_clock::now();
  if (job.kind == JobKind::kIngest)
    process_ingest(*org_, job);
  else
    process_query(*org_, job);
  const auto took = std::chrono::steady_clock::now() - started;
  const auto& sink = org_->state();
  {
    std::lock_guard lock(job.mu);
    job.processing_ms = std::chrono::duration_cast<std::chrono::milliseconds>(took).count();
    job.modified = org_->clock().now();
    if (job.state == JobState::kInProgress) job.state = JobState::kJobComplete;
    if (!sink || job.deleted) return;
    if (job.query_output && job.state == JobState::kJobComplete)
      sink->put(saved_kind::kQuery, job.id, saved_query_output(*job.query_output));
    keep(job);
  }
  // No request waits on a worker's changes, so none flushes them. Not under
  // job.mu: a flush takes the record store's lock.
  if (auto written = sink->flush(); !written.ok()) {
    std::lock_guard lock(job.mu);
    if (job.state != JobState::kJobComplete) return;
    job.state = JobState::kFailed;
    job.error_message = "InternalServerError : the data directory could not be written: " +
                        written.errors().front().message;
  }
}

void BulkJobs::keep(const Job& job) const {
  if (const auto& sink = org_->state()) sink->put(saved_kind::kJob, job.id, saved_job(job));
}

void BulkJobs::forget(const Job& job) const {
  const auto& sink = org_->state();
  if (!sink) return;
  sink->erase(saved_kind::kJob, job.id);
  sink->erase(saved_kind::kUpload, job.id);
  sink->erase(saved_kind::kQuery, job.id);
  for (size_t i = 0; i < job.ingest.chunks; ++i)
    sink->erase(saved_kind::kRows, chunk_key(job.id, i));
}

void BulkJobs::wait_idle() {
  std::unique_lock lock(mu_);
  idle_cv_.wait(lock, [this] { return !running_; });
}

}  // namespace fake_org::bulk
