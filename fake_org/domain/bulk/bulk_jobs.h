#pragma once
// Bulk API 2.0 (jobs/ingest and jobs/query under /services/data/vNN.0):
// one org's jobs, made, fed, closed, aborted, deleted and listed here, and
// processed off the request thread over the same records and SOQL engine
// as the REST data API. An ingest job writes its rows in the platform's
// 10,000-record chunks, one transaction each, a bad row failing alone.
//
// Processing: a job closed (UploadComplete) or created (a query) queues
// its work; one worker thread, started when work is queued and ended when
// none is left, runs the jobs one after another. No thread waits on time:
// the speed setting (processing_time) only holds back when a finished job
// reports itself finished, by the org clock, so a client polling it sees
// InProgress until the org clock (moved by the admin API, or passing on
// its own) reaches the job's ready time.
//
// Locking rule: mu_ guards the job tables and the queue; each job's own
// mutex guards its changing part (bulk_job.h). Lock order: mu_ before a
// job's mutex; neither is held while the worker writes records (the record
// store's lock is taken with neither held) or while a thread is joined.
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "bulk_job.h"
#include "domain/org/org.h"
#include "util/expected.h"

namespace fake_org::bulk {

// The platform's Bulk API errors: [{"errorCode", "message"}].
struct BulkError {
  enum class Kind { kInvalid, kNotFound, kNotComplete };
  Kind kind = Kind::kInvalid;
  std::string code;  // INVALIDJOB, INVALIDJOBSTATE, NOT_FOUND, JOB_NOT_COMPLETE, ...
  std::string message;
};
template <typename T>
using BulkResult = util::Expected<T, BulkError>;
struct BulkDone {};

enum class IngestResults { kSuccessful, kFailed, kUnprocessed };

struct QueryResultsPage {
  std::string csv;
  size_t records = 0;
  std::string next_locator;  // "null" on the last page, as the platform writes it
};

// The platform lists at most this many jobs per page.
inline constexpr size_t kJobsPerPage = 1000;
// Records per transaction of an ingest job, as the platform's chunks.
inline constexpr size_t kChunkRecords = 10000;
// A query job's results page when the client names no maxRecords.
inline constexpr size_t kDefaultMaxRecords = 50000;

class BulkJobs {
 public:
  explicit BulkJobs(std::shared_ptr<Org> org);
  ~BulkJobs();
  BulkJobs(const BulkJobs&) = delete;
  BulkJobs& operator=(const BulkJobs&) = delete;

  // How long a job takes on the org clock at the least (0: as soon as its
  // work is done).
  void set_processing_time(Millis t) { processing_ms_ = t.count(); }
  Millis processing_time() const { return Millis(processing_ms_.load()); }

  BulkResult<nlohmann::ordered_json> create_ingest(const nlohmann::json& body,
                                                   const std::string& api_version);
  BulkResult<nlohmann::ordered_json> create_query(const nlohmann::json& body,
                                                  const std::string& api_version);
  BulkResult<BulkDone> upload(std::string_view id, std::string csv);
  // PATCH {"state": "UploadComplete" | "Aborted"}.
  BulkResult<nlohmann::ordered_json> change_state(JobKind kind, std::string_view id,
                                                  const nlohmann::json& body);
  BulkResult<nlohmann::ordered_json> info(JobKind kind, std::string_view id) const;
  BulkResult<BulkDone> remove(JobKind kind, std::string_view id);
  // GET jobs/ingest or jobs/query: from `locator` (empty: the first page).
  BulkResult<nlohmann::ordered_json> list(JobKind kind, std::string_view locator,
                                          std::string_view job_type, bool pk_chunking,
                                          const std::string& api_version) const;
  BulkResult<std::string> ingest_results(std::string_view id, IngestResults which) const;
  BulkResult<QueryResultsPage> query_results(std::string_view id, std::string_view locator,
                                             std::string_view max_records) const;

  // Blocks until no job is queued or running (tests, shutdown).
  void wait_idle();

  // Start-up, before any request: the jobs a data directory kept, by kind
  // (bulk_saved.h). A job left UploadComplete or InProgress is queued again:
  // an ingest job resumes after its last whole chunk, a query job runs again.
  using Saved = std::vector<std::pair<std::string, nlohmann::json>>;
  void restore(const Saved& jobs, const Saved& uploads, const Saved& rows, const Saved& queries);

 private:
  std::shared_ptr<Job> find(JobKind kind, std::string_view id) const;
  std::shared_ptr<Job> new_job(JobKind kind, const std::string& api_version);
  void add(const std::shared_ptr<Job>& job);
  void enqueue(std::shared_ptr<Job> job);
  // With a data directory: the job's saved form (call with job.mu held), and
  // what it kept, dropped.
  void keep(const Job& job) const;
  void forget(const Job& job) const;
  void drain();
  void run(Job& job);

  std::shared_ptr<Org> org_;
  std::atomic<int64_t> processing_ms_{0};
  mutable std::mutex mu_;
  std::map<uint64_t, std::shared_ptr<Job>> ingest_jobs_;  // by sequence
  std::map<uint64_t, std::shared_ptr<Job>> query_jobs_;
  std::unordered_map<std::string, std::shared_ptr<Job>> by_id_;
  uint64_t next_sequence_ = 1;
  std::deque<std::shared_ptr<Job>> queue_;
  bool running_ = false;
  bool stopping_ = false;
  std::condition_variable idle_cv_;
  std::thread worker_;
};

// The work of one job, run by the worker (bulk_ingest.cpp, bulk_query.cpp).
void process_ingest(Org& org, Job& job);
void process_query(Org& org, Job& job);
// Why the platform's bulk query refuses `soql` (parse, bind and the bulk
// rules), or nullopt.
std::optional<BulkError> check_bulk_query(Org& org, std::string_view soql);
// The object a query checked by check_bulk_query reads.
std::string object_of_query(Org& org, std::string_view soql);
// A job body's columnDelimiter, lineEnding and contentType into `job`.
std::optional<BulkError> read_format_of_query(const nlohmann::json& body, Job& job);

}  // namespace fake_org::bulk
