#pragma once
// What a data directory keeps of a Bulk API 2.0 job (docs/durability.md),
// as keyed state of four kinds:
//   bulk_job     the job's settings, state and times (put at every change)
//   bulk_upload  an ingest job's CSV as uploaded (put once)
//   bulk_rows    one processed chunk of an ingest job, key "<id>/<n>": its
//                rows' outcomes and where the next row starts; put in the
//                chunk's own commit, so a restart finds a chunk's records
//                and its outcomes together or neither
//   bulk_query   a finished query job's CSV
// A job's counts are its chunks' sums; a restart resumes an ingest job at
// the first chunk it did not keep and runs an unfinished query job again.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bulk_job.h"

namespace fake_org::bulk {

namespace saved_kind {
inline constexpr std::string_view kJob = "bulk_job";
inline constexpr std::string_view kUpload = "bulk_upload";
inline constexpr std::string_view kRows = "bulk_rows";
inline constexpr std::string_view kQuery = "bulk_query";
}  // namespace saved_kind

// The job's saved form. Call with job.mu held.
nlohmann::json saved_job(const Job& job);
// A job from its saved form, or null when the form is not one saved_job
// writes (a damaged or newer file: the job is left out).
std::shared_ptr<Job> job_from_saved(const nlohmann::json& saved);

// One chunk of outcomes: rows[i] failed with errors[k] when rows[i].error
// is k+1 (1-based into `errors`, as the job numbers them after the chunk).
nlohmann::json saved_chunk(const std::vector<RowResult>& rows,
                           const std::vector<std::string>& errors, size_t next_row_at);
std::string chunk_key(std::string_view job_id, size_t chunk);
// Appends a saved chunk's outcomes to the job (its counts and resume
// point); false when the form is damaged. Call with job.mu held, chunks in
// order.
bool restore_chunk(Job& job, const nlohmann::json& saved);

nlohmann::json saved_query_output(const QueryOutput& out);
std::shared_ptr<const QueryOutput> query_output_from_saved(const nlohmann::json& saved);

}  // namespace fake_org::bulk
