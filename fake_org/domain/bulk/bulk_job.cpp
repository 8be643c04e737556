#include "bulk_job.h"

#include <array>
#include <utility>

#include "domain/soql/soql_eval.h"

namespace fake_org::bulk {

namespace {

constexpr std::array<std::pair<const char*, Operation>, 7> kBulkOperations = {{
    {"insert", Operation::kInsert},
    {"update", Operation::kUpdate},
    {"upsert", Operation::kUpsert},
    {"delete", Operation::kDelete},
    {"hardDelete", Operation::kHardDelete},
    {"query", Operation::kQuery},
    {"queryAll", Operation::kQueryAll},
}};

std::optional<Operation> bulk_operation_named(std::string_view name) {
  for (const auto& [n, op] : kBulkOperations)
    if (name == n) return op;
  return std::nullopt;
}

}  // namespace

const char* to_string(Operation op) {
  for (const auto& [n, o] : kBulkOperations)
    if (o == op) return n;
  return "insert";
}

std::optional<Operation> ingest_operation_named(std::string_view name) {
  auto op = bulk_operation_named(name);
  if (op && (*op == Operation::kQuery || *op == Operation::kQueryAll)) return std::nullopt;
  return op;
}

std::optional<Operation> query_operation_named(std::string_view name) {
  auto op = bulk_operation_named(name);
  if (op && *op != Operation::kQuery && *op != Operation::kQueryAll) return std::nullopt;
  return op;
}

const char* to_string(JobState state) {
  switch (state) {
    case JobState::kOpen:
      return "Open";
    case JobState::kUploadComplete:
      return "UploadComplete";
    case JobState::kInProgress:
      return "InProgress";
    case JobState::kJobComplete:
      return "JobComplete";
    case JobState::kFailed:
      return "Failed";
    case JobState::kAborted:
      return "Aborted";
  }
  return "Open";
}

JobState visible_state(const Job& job, TimePoint now) {
  if ((job.state == JobState::kJobComplete || job.state == JobState::kFailed) && now < job.ready_at)
    return JobState::kInProgress;
  return job.state;
}

nlohmann::ordered_json job_info(const Job& job, TimePoint now, bool full) {
  const JobState state = visible_state(job, now);
  nlohmann::ordered_json j = {{"id", job.id},
                              {"operation", to_string(job.operation)},
                              {"object", job.object},
                              {"createdById", job.created_by},
                              {"createdDate", soql::format_soql_datetime(job.created)},
                              {"systemModstamp", soql::format_soql_datetime(job.modified)},
                              {"state", to_string(state)}};
  if (job.operation == Operation::kUpsert) j["externalIdFieldName"] = job.external_id_field;
  j["concurrencyMode"] = "Parallel";
  j["contentType"] = "CSV";
  j["apiVersion"] = std::stod(job.api_version);
  const bool ingest = job.kind == JobKind::kIngest;
  if (ingest && state == JobState::kOpen)
    j["contentUrl"] = "services/data/v" + job.api_version + "/jobs/ingest/" + job.id + "/batches";
  j["jobType"] = ingest ? "V2Ingest" : "V2Query";
  j["lineEnding"] = line_ending_name(job.line_ending);
  j["columnDelimiter"] = delimiter_name(job.delimiter);
  if (!full) return j;
  // Counts show the work done; while the speed setting holds a finished
  // job back, they are those of the finished job.
  j["numberRecordsProcessed"] = job.processed;
  if (ingest) j["numberRecordsFailed"] = job.failed;
  j["retries"] = 0;
  j["totalProcessingTime"] = job.processing_ms;
  if (ingest) {
    j["apiActiveProcessingTime"] = job.processing_ms;
    j["apexProcessingTime"] = 0;
  }
  if (state == JobState::kFailed) j["errorMessage"] = job.error_message;
  return j;
}

}  // namespace fake_org::bulk
