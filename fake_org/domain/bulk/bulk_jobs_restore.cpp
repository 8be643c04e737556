// BulkJobs::restore: the jobs a data directory kept, back in the tables and
// the unfinished ones back in the queue.
#include <algorithm>
#include <map>
#include <string>

#include "bulk_jobs.h"
#include "bulk_saved.h"

namespace fake_org::bulk {

namespace {

// "<id>/<n>" -> (id, n); false for a key saved_chunk's writer never makes.
bool split_chunk_key(const std::string& key, std::string& id, size_t& n) {
  const size_t slash = key.find('/');
  if (slash == std::string::npos || slash + 1 >= key.size() || key.size() - slash > 10)
    return false;
  n = 0;
  for (size_t i = slash + 1; i < key.size(); ++i) {
    if (key[i] < '0' || key[i] > '9') return false;
    n = n * 10 + static_cast<size_t>(key[i] - '0');
  }
  id = key.substr(0, slash);
  return true;
}

// An ingest job's upload and chunks; false when what was kept does not fit
// together (a damaged file: the job is left out rather than served wrong).
bool restore_ingest(Job& job, const std::map<std::string, const nlohmann::json*>& uploads,
                    const std::map<size_t, const nlohmann::json*>& chunks) {
  if (auto it = uploads.find(job.id); it != uploads.end()) {
    if (!it->second->is_string()) return false;
    job.upload = it->second->get<std::string>();
  }
  // Chunks commit in order: the first missing number ends what was done.
  for (size_t n = 0;; ++n) {
    auto it = chunks.find(n);
    if (it == chunks.end()) break;
    if (!restore_chunk(job, *it->second)) return false;
  }
  if (job.ingest.unprocessed_from > job.upload.size()) return false;
  for (const RowResult& r : job.ingest.rows)
    if (r.begin > r.end || r.end > job.upload.size()) return false;
  job.ingest.all_processed = job.state == JobState::kJobComplete;
  return true;
}

}  // namespace

void BulkJobs::restore(const Saved& jobs, const Saved& uploads, const Saved& rows,
                       const Saved& queries) {
  std::map<std::string, const nlohmann::json*> upload_of, query_of;
  for (const auto& [id, value] : uploads) upload_of[id] = &value;
  for (const auto& [id, value] : queries) query_of[id] = &value;
  std::map<std::string, std::map<size_t, const nlohmann::json*>> chunks_of;
  for (const auto& [key, value] : rows) {
    std::string id;
    size_t n = 0;
    if (split_chunk_key(key, id, n)) chunks_of[id][n] = &value;
  }
  std::vector<std::shared_ptr<Job>> resume;
  for (const auto& entry : jobs) {
    auto job = job_from_saved(entry.second);
    if (!job) continue;
    if (job->kind == JobKind::kIngest && !restore_ingest(*job, upload_of, chunks_of[job->id]))
      continue;
    if (job->kind == JobKind::kQuery && job->state == JobState::kJobComplete) {
      auto it = query_of.find(job->id);
      job->query_output = it == query_of.end() ? nullptr : query_output_from_saved(*it->second);
      if (!job->query_output) job->state = JobState::kUploadComplete;  // run it again
    }
    if (job->state == JobState::kInProgress) job->state = JobState::kUploadComplete;
    if (job->state == JobState::kUploadComplete) resume.push_back(job);
    std::lock_guard lock(mu_);
    next_sequence_ = std::max(next_sequence_, job->sequence + 1);
    (job->kind == JobKind::kIngest ? ingest_jobs_ : query_jobs_)[job->sequence] = job;
    by_id_[job->id] = job;
  }
  std::sort(resume.begin(), resume.end(),
            [](const auto& a, const auto& b) { return a->sequence < b->sequence; });
  for (auto& job : resume) enqueue(std::move(job));
}

}  // namespace fake_org::bulk
