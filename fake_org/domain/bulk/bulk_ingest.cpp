// An ingest job's work: its CSV read in chunks of kChunkRecords, each chunk
// written in one transaction through the REST data API's own checks
// (data/sobject_write.h), a refused row failing alone with the REST API's
// error code.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "bulk_jobs.h"
#include "bulk_saved.h"
#include "domain/data/data_errors.h"
#include "domain/data/sobject_upsert.h"
#include "domain/data/sobject_write.h"
#include "domain/store/org_state.h"
#include "domain/store/record_store.h"
#include "domain/store/transaction.h"
#include "ingest_columns.h"
#include "util/ascii.h"
#include "util/text.h"

namespace fake_org::bulk {

namespace {

// One row read from the CSV, waiting for its chunk's transaction.
struct BulkPendingRow {
  size_t begin = 0;
  size_t end = 0;
  std::vector<std::string> values;
  std::string bad;  // the reader's complaint, or a column count mismatch
};

struct BulkIngestContext {
  Org& org;
  const ObjectDef& def;
  Operation op;
  std::string external_field;              // upsert
  const FieldDef* external_key = nullptr;  // upsert: that field (null for Id)
  IngestHeader header;
};

// The platform's sf__Error: CODE:message:fields --
std::string bulk_error_text(const data::DataError& e) {
  std::string out = e.code + ":" + e.message;
  if (!e.fields.empty()) {
    out += ":";
    for (size_t i = 0; i < e.fields.size(); ++i) out += (i ? "," : "") + e.fields[i];
  }
  return out + " --";
}

nlohmann::json bulk_cell_value(const FieldDef* f, const std::string& text) {
  if (text == "#N/A") return nullptr;
  if (f && f->type == FieldType::kBoolean) {
    if (iequals(text, "true") || text == "1") return true;
    if (iequals(text, "false") || text == "0") return false;
  }
  return text;
}

// The parent a relationship column names: by Id, or by an external id
// through the field's index (rows this job staged included).
std::optional<std::string> bulk_parent_id(BulkIngestContext& ctx, const Transaction& tx,
                                          const IngestColumn& c, const std::string& value) {
  if (!c.parent_key) return value;  // an Id: the reference check words a bad one
  auto ids = data::records_by_external_id(ctx.org, tx, *c.parent, *c.parent_key, value);
  if (!ids.ok() || ids->size() != 1) return std::nullopt;
  return ids->front();
}

struct BulkRowBody {
  nlohmann::json body = nlohmann::json::object();
  std::string id;        // the Id column
  std::string external;  // upsert: the external id's value
  std::optional<data::DataError> error;
};

BulkRowBody bulk_row_body(BulkIngestContext& ctx, const Transaction& tx,
                          const std::vector<std::string>& values) {
  BulkRowBody out;
  for (size_t i = 0; i < values.size(); ++i) {
    const IngestColumn& c = ctx.header.columns[i];
    const std::string& v = values[i];
    if (c.kind == IngestColumn::Kind::kId) {
      out.id = v;
      if (ctx.external_field == "Id") out.external = v;
      continue;
    }
    if (c.field && c.field->name == ctx.external_field) out.external = v;
    if (v.empty()) continue;  // an empty cell leaves the field as it is
    if (c.kind == IngestColumn::Kind::kRelationship) {
      if (v == "#N/A") {
        out.body[c.field->name] = nullptr;
        continue;
      }
      auto id = bulk_parent_id(ctx, tx, c, v);
      if (!id && !out.error)
        out.error = data::data_error("INVALID_FIELD",
                                     "Foreign key external ID: " + v + " not found for field " +
                                         c.parent_field + " in entity " + c.parent->api_name,
                                     {c.field->name});
      if (id) out.body[c.field->name] = *id;
      continue;
    }
    out.body[c.field ? c.field->name : c.name] = bulk_cell_value(c.field, v);
  }
  return out;
}

data::DataResult<std::string> bulk_stage_upsert(BulkIngestContext& ctx, Transaction& tx,
                                                BulkRowBody& row, bool& created) {
  if (row.external.empty() || row.external == "#N/A")
    return data::data_error("MISSING_ARGUMENT", ctx.external_field + " not specified",
                            {ctx.external_field});
  auto outcome = data::stage_upsert(ctx.org, tx, ctx.def, ctx.external_key, row.external, row.body);
  if (!outcome.ok()) return outcome.errors();
  if (!outcome->matches.empty())
    return data::data_error(data::code::kDuplicateExternalId,
                            ctx.external_field +
                                ": more than one record found for external id "
                                "field: [" +
                                text::join(outcome->matches, ", ") + "]",
                            {ctx.external_field});
  created = outcome->created;
  return outcome->id;
}

// One row's write inside the chunk's transaction: its id, or its errors.
data::DataResult<std::string> bulk_stage_row(BulkIngestContext& ctx, Transaction& tx,
                                             BulkRowBody& row, bool& created) {
  if (row.error) return *row.error;
  switch (ctx.op) {
    case Operation::kInsert: {
      auto id = data::stage_create(ctx.org, tx, ctx.def, row.body);
      created = id.ok();
      return id;
    }
    case Operation::kUpsert:
      return bulk_stage_upsert(ctx, tx, row, created);
    case Operation::kUpdate: {
      if (row.id.empty())
        return data::data_error("MISSING_ARGUMENT", "Id not specified in an update call");
      auto done = data::stage_update(ctx.org, tx, &ctx.def, row.id, row.body);
      if (!done.ok()) return done.errors();
      return row.id;
    }
    default: {
      if (row.id.empty())
        return data::data_error("MISSING_ARGUMENT", "Id not specified in a delete call");
      auto done = data::stage_delete(ctx.org, tx, &ctx.def, row.id);
      if (!done.ok()) return done.errors();
      return row.id;
    }
  }
}

void bulk_set_row_id(RowResult& r, const std::string& id) {
  if (id.size() != r.id.size()) return;
  std::copy(id.begin(), id.end(), r.id.begin());
  r.has_id = true;
}

// Writes one chunk in one transaction and records each row's outcome. With
// a data directory the outcomes are kept in the same commit as the chunk's
// records (bulk_saved.h), so a restart resumes after the last whole chunk.
void bulk_write_chunk(BulkIngestContext& ctx, Job& job, const std::vector<BulkPendingRow>& chunk,
                      size_t unprocessed_from, size_t chunk_index) {
  std::vector<RowResult> results(chunk.size());
  std::vector<std::string> errors;  // this chunk's; results[i].error counts from 1 in it
  const auto keep_outcomes = [&] {
    if (const auto& sink = ctx.org.state())
      sink->put(saved_kind::kRows, chunk_key(job.id, chunk_index),
                saved_chunk(results, errors, unprocessed_from));
  };
  const bool taken = ctx.org.records().write_untyped(
      [&](Transaction& tx) {
        for (size_t i = 0; i < chunk.size(); ++i) {
          const BulkPendingRow& p = chunk[i];
          RowResult& r = results[i];
          r.begin = p.begin;
          r.end = p.end;
          std::string error;
          if (!p.bad.empty()) {
            error = "MALFORMED_CSV:" + p.bad + " --";
          } else {
            BulkRowBody row = bulk_row_body(ctx, tx, p.values);
            bool created = false;
            auto id = bulk_stage_row(ctx, tx, row, created);
            if (id.ok()) {
              bulk_set_row_id(r, *id);
              r.created = created;
            } else {
              bulk_set_row_id(r, row.id);
              error = bulk_error_text(id.errors().front());
            }
          }
          if (error.empty()) continue;
          errors.push_back(std::move(error));
          r.error = static_cast<uint32_t>(errors.size());
        }
        return true;
      },
      keep_outcomes);
  if (!taken) {  // the org's record cap refused the chunk: every row fails
    errors.assign(1, bulk_error_text(data::storage_limit_data_error(
                         ctx.org.records().storage_limit_error().message)));
    for (RowResult& r : results) {
      r.error = 1;
      if (r.created) r.has_id = false;  // the id it would have had was never made
      r.created = false;
    }
    keep_outcomes();
  }
  std::lock_guard lock(job.mu);
  const auto first_error = static_cast<uint32_t>(job.ingest.errors.size());
  for (RowResult& r : results) {
    if (r.error) {
      r.error += first_error;
      ++job.failed;
    }
    job.ingest.rows.push_back(r);
  }
  for (std::string& e : errors) job.ingest.errors.push_back(std::move(e));
  job.processed += chunk.size();
  job.ingest.unprocessed_from = unprocessed_from;
  ++job.ingest.chunks;
}

void bulk_fail_job(Job& job, std::string message) {
  std::lock_guard lock(job.mu);
  if (job.state == JobState::kInProgress) job.state = JobState::kFailed;
  job.error_message = std::move(message);
}

// The header's problem for this operation, or "".
std::string bulk_header_problem(const BulkIngestContext& ctx) {
  if (!ctx.header.error.empty()) return ctx.header.error;
  bool has_id = false;
  bool has_external = false;
  for (const IngestColumn& c : ctx.header.columns) {
    has_id = has_id || c.kind == IngestColumn::Kind::kId;
    has_external = has_external || (c.field && c.field->name == ctx.external_field);
  }
  if (ctx.op == Operation::kUpsert && ctx.external_field == "Id") has_external = has_id;
  if ((ctx.op == Operation::kUpdate || ctx.op == Operation::kDelete ||
       ctx.op == Operation::kHardDelete) &&
      !has_id)
    return "InvalidBatch : Field name not found : Id (an update or delete names each record "
           "in an Id column)";
  if (ctx.op == Operation::kUpsert && !has_external)
    return "InvalidBatch : Field name not found : " + ctx.external_field +
           " (an upsert names each record by its external id column)";
  return "";
}

// Reads up to kChunkRecords rows; false at the end of the text.
bool bulk_read_chunk(CsvReader& reader, size_t columns, std::vector<BulkPendingRow>& chunk) {
  chunk.clear();
  while (chunk.size() < kChunkRecords) {
    BulkPendingRow row;
    const auto st = reader.next(row.values);
    if (st == CsvReader::Status::kEnd) break;
    row.begin = reader.record_begin();
    row.end = reader.record_end();
    if (st == CsvReader::Status::kBad)
      row.bad = reader.error();
    else if (row.values.size() != columns)
      row.bad = "the row has " + std::to_string(row.values.size()) + " values, the header " +
                std::to_string(columns) + " columns";
    chunk.push_back(std::move(row));
  }
  return !chunk.empty();
}

}  // namespace

void process_ingest(Org& org, Job& job) {
  std::string_view text;
  size_t resume_at = 0;  // a job restored mid-way: where its first chunk not kept starts
  size_t chunk_index = 0;
  {
    std::lock_guard lock(job.mu);
    text = job.upload;  // no upload changes it once the job is closed
    resume_at = job.ingest.unprocessed_from;
    chunk_index = job.ingest.chunks;
  }
  const ObjectDef* def = org.config().object(job.object);
  if (!def) return bulk_fail_job(job, "InvalidJob : Unable to find object: " + job.object);
  CsvReader reader(text, job.delimiter);
  std::vector<std::string> names;
  const auto st = reader.next(names);
  if (st == CsvReader::Status::kEnd)
    return bulk_fail_job(job,
                         "InvalidBatch : Failed to process the CSV: no data was uploaded, or it "
                         "has no header row");
  if (st == CsvReader::Status::kBad)
    return bulk_fail_job(job, "InvalidBatch : Failed to parse CSV header: " + reader.error());
  BulkIngestContext ctx{
      org,
      *def,
      job.operation,
      job.external_id_field,
      iequals(job.external_id_field, "Id") ? nullptr : def->field(job.external_id_field),
      read_ingest_header(org.config(), *def, names)};
  if (auto problem = bulk_header_problem(ctx); !problem.empty()) return bulk_fail_job(job, problem);
  {
    std::lock_guard lock(job.mu);
    job.ingest.header.assign(
        text.substr(reader.record_begin(), reader.record_end() - reader.record_begin()));
    if (resume_at > reader.position())
      reader.seek(resume_at);
    else
      job.ingest.unprocessed_from = reader.position();
  }
  std::vector<BulkPendingRow> chunk;
  chunk.reserve(kChunkRecords);
  while (!job.stop && bulk_read_chunk(reader, ctx.header.columns.size(), chunk)) {
    bulk_write_chunk(ctx, job, chunk, reader.position(), chunk_index++);
    const auto& sink = org.state();
    if (!sink) continue;
    if (auto written = sink->flush(); !written.ok())
      return bulk_fail_job(job, "InternalServerError : the data directory could not be written: " +
                                    written.errors().front().message);
  }
  std::lock_guard lock(job.mu);
  if (!job.stop) job.ingest.all_processed = true;
}

}  // namespace fake_org::bulk
