#include "bulk_saved.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "csv.h"

namespace fake_org::bulk {

namespace {

using nlohmann::json;

int64_t saved_ms(TimePoint t) {
  return t.time_since_epoch().count();
}
TimePoint time_of_saved(const json& v) {
  return TimePoint(std::chrono::milliseconds(v.is_number_integer() ? v.get<int64_t>() : 0));
}

std::optional<JobState> job_state_named(std::string_view name) {
  for (JobState s : {JobState::kOpen, JobState::kUploadComplete, JobState::kInProgress,
                     JobState::kJobComplete, JobState::kFailed, JobState::kAborted})
    if (name == to_string(s)) return s;
  return std::nullopt;
}

std::string saved_text(const json& j, const char* name) {
  auto it = j.find(name);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

size_t saved_size(const json& j, const char* name) {
  auto it = j.find(name);
  return it != j.end() && it->is_number_unsigned() ? it->get<size_t>() : 0;
}

}  // namespace

json saved_job(const Job& job) {
  return json{{"id", job.id},
              {"kind", job.kind == JobKind::kIngest ? "ingest" : "query"},
              {"operation", to_string(job.operation)},
              {"object", job.object},
              {"external_id_field", job.external_id_field},
              {"query", job.query},
              {"delimiter", delimiter_name(job.delimiter)},
              {"line_ending", job.line_ending == LineEnding::kCrlf ? "CRLF" : "LF"},
              {"api_version", job.api_version},
              {"created_by", job.created_by},
              {"created_ms", saved_ms(job.created)},
              {"sequence", job.sequence},
              {"state", to_string(job.state)},
              {"modified_ms", saved_ms(job.modified)},
              {"ready_at_ms", saved_ms(job.ready_at)},
              {"uploads", job.uploads},
              {"processing_ms", job.processing_ms},
              {"error_message", job.error_message},
              {"header", job.ingest.header}};
}

std::shared_ptr<Job> job_from_saved(const json& saved) {
  if (!saved.is_object()) return nullptr;
  auto job = std::make_shared<Job>();
  job->id = saved_text(saved, "id");
  const std::string kind = saved_text(saved, "kind");
  job->kind = kind == "query" ? JobKind::kQuery : JobKind::kIngest;
  const std::string op = saved_text(saved, "operation");
  auto operation = kind == "query" ? query_operation_named(op) : ingest_operation_named(op);
  auto state = job_state_named(saved_text(saved, "state"));
  auto delimiter = delimiter_named(saved_text(saved, "delimiter"));
  auto ending = line_ending_named(saved_text(saved, "line_ending"));
  if (job->id.size() != 18 || (kind != "ingest" && kind != "query") || !operation || !state ||
      !delimiter || !ending)
    return nullptr;
  job->operation = *operation;
  job->state = *state;
  job->delimiter = *delimiter;
  job->line_ending = *ending;
  job->object = saved_text(saved, "object");
  job->external_id_field = saved_text(saved, "external_id_field");
  job->query = saved_text(saved, "query");
  job->api_version = saved_text(saved, "api_version");
  job->created_by = saved_text(saved, "created_by");
  job->created = time_of_saved(saved.value("created_ms", json()));
  job->modified = time_of_saved(saved.value("modified_ms", json()));
  job->ready_at = time_of_saved(saved.value("ready_at_ms", json()));
  job->sequence = saved_size(saved, "sequence");
  job->uploads = static_cast<int>(std::min<size_t>(saved_size(saved, "uploads"), 1000));
  job->processing_ms = static_cast<int64_t>(saved_size(saved, "processing_ms"));
  job->error_message = saved_text(saved, "error_message");
  job->ingest.header = saved_text(saved, "header");
  job->stop = job->state == JobState::kAborted;
  return job;
}

std::string chunk_key(std::string_view job_id, size_t chunk) {
  return std::string(job_id) + "/" + std::to_string(chunk);
}

json saved_chunk(const std::vector<RowResult>& rows, const std::vector<std::string>& errors,
                 size_t next_row_at) {
  // [begin, end, id or "", created, error (0: none; else 1-based in this chunk's errors)]
  json out_rows = json::array();
  for (const RowResult& r : rows)
    out_rows.push_back(json::array(
        {r.begin, r.end, r.has_id ? std::string(r.id.data(), r.id.size()) : std::string(),
         r.created, r.error}));
  return json{{"rows", std::move(out_rows)}, {"errors", errors}, {"next", next_row_at}};
}

bool restore_chunk(Job& job, const json& saved) {
  if (!saved.is_object() || !saved.contains("rows") || !saved["rows"].is_array() ||
      !saved.contains("errors") || !saved["errors"].is_array())
    return false;
  const size_t first_error = job.ingest.errors.size();
  for (const json& e : saved["errors"]) {
    if (!e.is_string()) return false;
    job.ingest.errors.push_back(e.get<std::string>());
  }
  for (const json& r : saved["rows"]) {
    if (!r.is_array() || r.size() != 5 || !r[0].is_number_unsigned() ||
        !r[1].is_number_unsigned() || !r[2].is_string() || !r[3].is_boolean() ||
        !r[4].is_number_unsigned())
      return false;
    RowResult row;
    row.begin = r[0].get<size_t>();
    row.end = r[1].get<size_t>();
    const std::string id = r[2].get<std::string>();
    if (id.size() == row.id.size()) {
      std::copy(id.begin(), id.end(), row.id.begin());
      row.has_id = true;
    }
    row.created = r[3].get<bool>();
    const size_t error = r[4].get<size_t>();
    if (error > saved["errors"].size()) return false;
    row.error = error ? static_cast<uint32_t>(first_error + error) : 0;
    if (row.error) ++job.failed;
    job.ingest.rows.push_back(row);
  }
  job.processed += saved["rows"].size();
  job.ingest.unprocessed_from = saved_size(saved, "next");
  ++job.ingest.chunks;
  return true;
}

json saved_query_output(const QueryOutput& out) {
  return json{{"header", out.header}, {"rows", out.rows}, {"row_ends", out.row_ends}};
}

std::shared_ptr<const QueryOutput> query_output_from_saved(const json& saved) {
  if (!saved.is_object() || !saved.contains("row_ends") || !saved["row_ends"].is_array())
    return nullptr;
  auto out = std::make_shared<QueryOutput>();
  out->header = saved_text(saved, "header");
  out->rows = saved_text(saved, "rows");
  size_t last = 0;
  for (const json& e : saved["row_ends"]) {
    if (!e.is_number_unsigned() || e.get<size_t>() < last || e.get<size_t>() > out->rows.size())
      return nullptr;
    last = e.get<size_t>();
    out->row_ends.push_back(last);
  }
  return out;
}

}  // namespace fake_org::bulk
