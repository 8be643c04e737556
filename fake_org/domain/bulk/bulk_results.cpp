// BulkJobs: query jobs, the job lists and the result files.
#include <utility>

#include "bulk_jobs.h"
#include "util/crypto.h"

namespace fake_org::bulk {

namespace {

BulkError bulk_not_found_error() {
  return BulkError{BulkError::Kind::kNotFound, "NOT_FOUND",
                   "The requested resource does not exist"};
}

// The base64 of a number without padding, as the platform's locators look
// ("MTAwMDA" for 10000).
std::string bulk_locator(uint64_t n) {
  std::string b = crypto::base64_encode(std::to_string(n));
  while (!b.empty() && b.back() == '=') b.pop_back();
  return b;
}

std::optional<uint64_t> bulk_locator_value(std::string_view locator) {
  if (locator.empty() || locator.size() > 24) return std::nullopt;
  std::string padded(locator);
  while (padded.size() % 4 != 0) padded.push_back('=');
  auto text = crypto::base64_decode(padded);
  if (!text || text->empty() || text->size() > 15) return std::nullopt;
  uint64_t n = 0;
  for (char c : *text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  return n;
}

std::optional<size_t> bulk_max_records_of(std::string_view text) {
  if (text.empty()) return kDefaultMaxRecords;
  if (text.size() > 9) return std::nullopt;
  size_t n = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<size_t>(c - '0');
  }
  if (n == 0) return std::nullopt;
  return n;
}

void bulk_append_row_prefix(std::string& out, const RowResult& row, IngestResults which,
                            const IngestOutput& o, char delimiter) {
  append_quoted(out, row.has_id ? std::string_view(row.id.data(), row.id.size()) : "");
  out.push_back(delimiter);
  if (which == IngestResults::kSuccessful)
    append_quoted(out, row.created ? "true" : "false");
  else
    append_quoted(out, o.errors[row.error - 1]);
  out.push_back(delimiter);
}

}  // namespace

BulkResult<nlohmann::ordered_json> BulkJobs::create_query(const nlohmann::json& body,
                                                          const std::string& api_version) {
  auto bad = [](std::string m) {
    return BulkError{BulkError::Kind::kInvalid, "INVALIDJOB", "InvalidJob : " + std::move(m)};
  };
  if (!body.is_object()) return bad("the body must be a JSON object");
  auto q = body.find("query");
  auto op = body.find("operation");
  if (q == body.end() || !q->is_string() || q->get_ref<const std::string&>().empty())
    return bad("query is required: a SOQL query as a string");
  std::optional<Operation> operation = Operation::kQuery;
  if (op != body.end()) {
    if (!op->is_string()) return bad("operation must be query or queryAll");
    operation = query_operation_named(op->get<std::string>());
    if (!operation)
      return bad("Invalid operation: " + op->get<std::string>() + " (query or queryAll)");
  }
  if (auto e = check_bulk_query(*org_, q->get<std::string>())) return *e;
  Job format;
  if (auto e = read_format_of_query(body, format)) return *e;
  auto job = new_job(JobKind::kQuery, api_version);
  job->operation = *operation;
  job->query = q->get<std::string>();
  job->delimiter = format.delimiter;
  job->line_ending = format.line_ending;
  job->object = object_of_query(*org_, job->query);
  job->state = JobState::kUploadComplete;
  job->ready_at = job->created + processing_time();
  add(job);
  nlohmann::ordered_json info;
  {
    std::lock_guard lock(job->mu);
    keep(*job);
    info = job_info(*job, org_->clock().now(), false);
  }
  enqueue(job);
  return info;
}

BulkResult<nlohmann::ordered_json> BulkJobs::list(JobKind kind, std::string_view locator,
                                                  std::string_view job_type, bool pk_chunking,
                                                  const std::string& api_version) const {
  uint64_t from = 0;
  if (!locator.empty()) {
    auto n = bulk_locator_value(locator);
    if (!n)
      return BulkError{BulkError::Kind::kInvalid, "INVALIDLOCATOR",
                       "Invalid queryLocator: use the nextRecordsUrl of the previous page"};
    from = *n;
  }
  const char* mine = kind == JobKind::kIngest ? "V2Ingest" : "V2Query";
  // Bulk API 1.0 (Classic) and PK chunking jobs: this org has none.
  const bool none = pk_chunking || (!job_type.empty() && job_type != mine);
  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  std::vector<std::shared_ptr<Job>> page;
  bool more = false;
  uint64_t next = 0;
  if (!none) {
    std::lock_guard lock(mu_);
    const auto& jobs = kind == JobKind::kIngest ? ingest_jobs_ : query_jobs_;
    for (auto it = jobs.lower_bound(from); it != jobs.end(); ++it) {
      if (page.size() == kJobsPerPage) {
        more = true;
        next = it->first;
        break;
      }
      page.push_back(it->second);
    }
  }
  const TimePoint now = org_->clock().now();
  for (const auto& job : page) {
    std::lock_guard lock(job->mu);
    records.push_back(job_info(*job, now, false));
  }
  nlohmann::ordered_json out = {{"done", !more}, {"records", std::move(records)}};
  out["nextRecordsUrl"] =
      more ? nlohmann::ordered_json("/services/data/v" + api_version + "/jobs/" +
                                    (kind == JobKind::kIngest ? "ingest" : "query") +
                                    "?queryLocator=" + bulk_locator(next))
           : nlohmann::ordered_json(nullptr);
  return out;
}

BulkResult<std::string> BulkJobs::ingest_results(std::string_view id, IngestResults which) const {
  auto job = find(JobKind::kIngest, id);
  if (!job) return bulk_not_found_error();
  std::lock_guard lock(job->mu);
  const IngestOutput& o = job->ingest;
  const std::string_view le = line_break(job->line_ending);
  std::string out;
  const char d = job->delimiter;
  if (which == IngestResults::kUnprocessed) {
    // Before processing starts every row is unprocessed: the upload itself.
    if (o.header.empty()) return job->upload;
    out.append(o.header).append(le);
    if (!o.all_processed && o.unprocessed_from < job->upload.size())
      out.append(job->upload, o.unprocessed_from, std::string::npos);
    return out;
  }
  append_quoted(out, "sf__Id");
  out.push_back(d);
  append_quoted(out, which == IngestResults::kSuccessful ? "sf__Created" : "sf__Error");
  if (!o.header.empty()) out.push_back(d);
  out.append(o.header).append(le);
  const bool want_failed = which == IngestResults::kFailed;
  for (const RowResult& row : o.rows) {
    if ((row.error != 0) != want_failed) continue;
    bulk_append_row_prefix(out, row, which, o, d);
    out.append(job->upload, row.begin, row.end - row.begin).append(le);
  }
  return out;
}

BulkResult<QueryResultsPage> BulkJobs::query_results(std::string_view id, std::string_view locator,
                                                     std::string_view max_records) const {
  auto job = find(JobKind::kQuery, id);
  if (!job) return bulk_not_found_error();
  auto max = bulk_max_records_of(max_records);
  if (!max)
    return BulkError{BulkError::Kind::kInvalid, "INVALIDMAXRECORDS",
                     "maxRecords must be a whole number from 1 up"};
  std::shared_ptr<const QueryOutput> output;
  {
    std::lock_guard lock(job->mu);
    const JobState s = visible_state(*job, org_->clock().now());
    if (s != JobState::kJobComplete)
      return BulkError{BulkError::Kind::kNotComplete, "JOB_NOT_COMPLETE",
                       std::string("can only download query results of successfully completed "
                                   "bulk job with status: JOB_COMPLETE. Current status: ") +
                           to_string(s)};
    output = job->query_output;
  }
  size_t start = 0;
  const size_t rows = output ? output->row_ends.size() : 0;
  if (!locator.empty()) {
    auto n = bulk_locator_value(locator);
    if (!n || *n == 0 || *n >= rows)
      return BulkError{BulkError::Kind::kInvalid, "INVALIDLOCATOR",
                       "Invalid locator: use the Sforce-Locator of the previous page"};
    start = static_cast<size_t>(*n);
  }
  QueryResultsPage page;
  const size_t end = std::min(rows, start + *max);
  if (output) {
    page.csv = output->header;
    const size_t from = start == 0 ? 0 : output->row_ends[start - 1];
    const size_t to = end == 0 ? 0 : output->row_ends[end - 1];
    page.csv.append(output->rows, from, to - from);
  }
  page.records = end - start;
  page.next_locator = end < rows ? bulk_locator(end) : "null";
  return page;
}

}  // namespace fake_org::bulk
