// A query job's work: the SOQL engine of the REST query resource (soql/),
// its rows written as CSV with one column per selected path, relationship
// fields as Account.Name, every field quoted and null as an empty field.
#include <memory>
#include <string>
#include <vector>

#include "bulk_jobs.h"
#include "domain/config/org_config.h"
#include "domain/core/clock.h"
#include "domain/soql/soql_eval.h"
#include "domain/soql/soql_parser.h"
#include "domain/store/record_store.h"

namespace fake_org::bulk {

namespace {

// Rows shown per hold of the store's read lock, so a large export never
// keeps writers waiting long.
constexpr size_t kBulkRowsPerRead = 10000;

BulkError bulk_query_refused(std::string what) {
  return BulkError{BulkError::Kind::kInvalid, "API_ERROR",
                   "Bulk API 2.0 query jobs do not support " + std::move(what) +
                       ": run it through the REST query resource instead"};
}

soql::SoqlResult<soql::BoundQuery> bind_bulk_query(Org& org, std::string_view text,
                                                   soql::Query& parsed) {
  auto p = soql::parse_soql(text);
  if (!p) return p.error();
  parsed = std::move(p.value());
  return soql::bind_query(org.config_ptr(), text, parsed, org.clock().now());
}

std::string bulk_cell_text(const nlohmann::ordered_json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump();
}

// The value of `path` in a record as show_record shows it.
const nlohmann::ordered_json* bulk_path_value(const nlohmann::ordered_json& record,
                                              const soql::Path& path) {
  const nlohmann::ordered_json* at = &record;
  for (const soql::Hop& hop : path.hops) {
    auto it = at->find(hop.relationship);
    if (it == at->end() || !it->is_object()) return nullptr;
    at = &*it;
  }
  auto it = at->find(path.column.name);
  return it == at->end() ? nullptr : &*it;
}

void bulk_fail_query(Job& job, std::string message) {
  std::lock_guard lock(job.mu);
  if (job.state == JobState::kInProgress) job.state = JobState::kFailed;
  job.error_message = std::move(message);
}

}  // namespace

std::optional<BulkError> check_bulk_query(Org& org, std::string_view soql) {
  soql::Query parsed;
  auto bound = bind_bulk_query(org, soql, parsed);
  if (!bound)
    return BulkError{BulkError::Kind::kInvalid, bound.error().error_code, bound.error().message};
  if (parsed.count) return bulk_query_refused("COUNT()");
  if (bound->aggregate) return bulk_query_refused("aggregate functions or GROUP BY");
  if (parsed.offset) return bulk_query_refused("OFFSET");
  for (const auto& item : parsed.items)
    if (!item.fields_function.empty()) return bulk_query_refused("FIELDS()");
  return std::nullopt;
}

std::string object_of_query(Org& org, std::string_view soql) {
  soql::Query parsed;
  auto bound = bind_bulk_query(org, soql, parsed);
  return bound && bound->object ? bound->object->api_name : "";
}

void process_query(Org& org, Job& job) {
  soql::Query parsed;
  auto bound = bind_bulk_query(org, job.query, parsed);
  if (!bound) return bulk_fail_query(job, bound.error().message);
  bound->include_deleted = job.operation == Operation::kQueryAll;
  const soql::BoundQuery& q = *bound;
  auto out = std::make_shared<QueryOutput>();
  const std::string_view le = line_break(job.line_ending);
  for (size_t i = 0; i < q.select.size(); ++i) {
    if (i) out->header.push_back(job.delimiter);
    append_quoted(out->header, q.select[i].text());
  }
  out->header.append(le);
  std::vector<RecordPtr> rows;
  soql::QueryPlan plan;
  org.records().read([&](const RecordStore& store) { rows = soql::evaluate(q, store, plan); });
  out->row_ends.reserve(rows.size());
  for (size_t start = 0; start < rows.size() && !job.stop; start += kBulkRowsPerRead) {
    const size_t end = std::min(rows.size(), start + kBulkRowsPerRead);
    org.records().read([&](const RecordStore& store) {
      for (size_t r = start; r < end; ++r) {
        const auto shown = soql::show_record(q, *rows[r], store, job.api_version);
        for (size_t i = 0; i < q.select.size(); ++i) {
          if (i) out->rows.push_back(job.delimiter);
          const auto* v = bulk_path_value(shown, q.select[i]);
          append_quoted(out->rows, v ? bulk_cell_text(*v) : "");
        }
        out->rows.append(le);
        out->row_ends.push_back(out->rows.size());
      }
    });
  }
  std::lock_guard lock(job.mu);
  if (job.stop) return;
  job.processed = out->row_ends.size();
  job.query_output = std::move(out);
}

}  // namespace fake_org::bulk
