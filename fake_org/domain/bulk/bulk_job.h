#pragma once
// One Bulk API 2.0 job, ingest or query, as the platform describes it
// (JobInfo): its settings, its state and counts, and what it produced. The
// settings are fixed at creation; the rest changes as the job runs, under
// the job's own mutex (bulk_jobs.h says who takes it).
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "csv.h"
#include "domain/core/clock.h"

namespace fake_org::bulk {

enum class JobKind { kIngest, kQuery };
enum class Operation { kInsert, kUpdate, kUpsert, kDelete, kHardDelete, kQuery, kQueryAll };
const char* to_string(Operation op);
std::optional<Operation> ingest_operation_named(std::string_view name);
std::optional<Operation> query_operation_named(std::string_view name);

// The platform's job states. A job moves Open -> UploadComplete ->
// InProgress -> JobComplete | Failed, or to Aborted from any but the last
// two (a query job starts at UploadComplete).
enum class JobState { kOpen, kUploadComplete, kInProgress, kJobComplete, kFailed, kAborted };
const char* to_string(JobState state);
inline bool finished(JobState s) {
  return s == JobState::kJobComplete || s == JobState::kFailed || s == JobState::kAborted;
}

// One processed row of an ingest job: where its text lies in the upload,
// the record it wrote (empty when none) and, for a failure, its error.
struct RowResult {
  size_t begin = 0;
  size_t end = 0;
  std::array<char, 18> id{};
  bool has_id = false;
  bool created = false;
  uint32_t error = 0;  // 1-based index into IngestOutput::errors; 0: success
};

struct IngestOutput {
  std::string header;  // the upload's header line as sent
  std::vector<RowResult> rows;
  std::vector<std::string> errors;  // sf__Error texts, by RowResult::error
  size_t unprocessed_from = 0;      // upload offset of the first row not processed
  size_t chunks = 0;                // chunks written (each kept under its number)
  bool all_processed = false;
};

struct QueryOutput {
  std::string header;            // the column line, with its line break
  std::string rows;              // every row, each with its line break
  std::vector<size_t> row_ends;  // rows[i] ends at row_ends[i]
};

struct Job {
  // Fixed at creation.
  std::string id;  // 18 characters, key prefix 750
  JobKind kind = JobKind::kIngest;
  Operation operation = Operation::kInsert;
  std::string object;
  std::string external_id_field;  // upsert
  std::string query;              // query jobs
  char delimiter = ',';
  LineEnding line_ending = LineEnding::kLf;
  std::string api_version;  // "59.0"
  std::string created_by;
  TimePoint created{};
  uint64_t sequence = 0;  // creation order, for the job lists

  // Below: guarded by mu.
  mutable std::mutex mu;
  JobState state = JobState::kOpen;
  TimePoint modified{};
  // The org time the job may report itself finished (the speed setting).
  TimePoint ready_at{};
  std::string upload;  // the CSV as uploaded (ingest)
  int uploads = 0;     // PUTs received; the platform takes one per job
  size_t processed = 0;
  size_t failed = 0;
  int64_t processing_ms = 0;
  std::string error_message;  // Failed: why
  bool deleted = false;
  IngestOutput ingest;
  std::shared_ptr<const QueryOutput> query_output;
  // Set by an abort or a delete; the worker stops at the next chunk.
  std::atomic<bool> stop{false};
};

// The state a client sees at `now`: a job whose work is done reports it
// only once the org clock reaches ready_at. Call with job.mu held.
JobState visible_state(const Job& job, TimePoint now);

// The platform's JobInfo: `full` adds the counts and times GET shows.
// Call with job.mu held.
nlohmann::ordered_json job_info(const Job& job, TimePoint now, bool full);

}  // namespace fake_org::bulk
