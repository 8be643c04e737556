#pragma once
// SOQL over the org's records: what the data API's query and queryAll
// resources answer (docs/soql.md). Parse, bind to the catalogue, plan (an
// index when the WHERE clause allows), evaluate, and page by batches of up
// to 2,000 records, the rest behind a query locator.
//
// Errors are values: a SoqlError carries the platform's errorCode and
// message (every one answers HTTP 400 as [{"message", "errorCode"}]).
// Thread-safe: a query reads under the record store's shared lock.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "domain/org/org.h"
#include "soql_ast.h"
#include "soql_eval.h"

namespace fake_org::soql {

inline constexpr size_t kMaxBatchSize = 2000;
inline constexpr size_t kMinBatchSize = 200;

struct QueryOptions {
  // queryAll: deleted records too (Record::deleted, the data API's DELETE).
  bool include_deleted = false;
  // Echoed in record and next-records URLs ("59.0"); empty: the org's.
  std::string api_version;
  // Records per batch, as Sforce-Query-Options: batchSize asks; held to
  // 200..2,000 as the platform does.
  size_t batch_size = kMaxBatchSize;
  // The instant date literals (TODAY, LAST_N_DAYS:n) count from, and the
  // cursor's idle clock; default: the org clock.
  std::optional<TimePoint> now;
};

struct QueryPage {
  size_t total_size = 0;  // records the whole query answers, all batches
  bool done = true;
  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  std::string next_records_url;  // "/services/data/vNN.0/query/{locator}"; empty when done
  std::string locator;           // "01g...-2000"; empty when done
  QueryPlan plan;                // how run_query found the candidates (tests, logs)

  // The platform's body: {totalSize, done, [nextRecordsUrl,] records}.
  nlohmann::ordered_json to_json() const;
  // The same body as JSON text (json_text(to_json())), written without
  // copying the records into a second tree: a batch of 2,000 rows.
  std::string to_text() const;
};

// query?q= and queryAll?q=: the first batch.
SoqlResult<QueryPage> run_query(const Org& org, std::string_view soql,
                                const QueryOptions& options = {});

// query?q=...&columns=true (and queryAll): the result's columns as the
// platform's query plan describes them, {columnMetadata, entityName,
// groupBy, idSelected, keyPrefix}, without running the query (no cursor
// opens). A relationship path is one column whose joinColumns hold the
// rest; an aggregate is aggregate:true under its exprN name or alias;
// SELECT COUNT() has none. Errors as run_query's.
SoqlResult<nlohmann::ordered_json> query_columns(const Org& org, std::string_view soql,
                                                 const QueryOptions& options = {});

// GET .../query/{locator}: the batch a locator names. INVALID_QUERY_LOCATOR
// when it names no open cursor or lies past its end. `options.api_version`
// (when set) is echoed in the URLs, else the version of the first request.
SoqlResult<QueryPage> next_page(const Org& org, std::string_view locator,
                                const QueryOptions& options = {});

}  // namespace fake_org::soql
