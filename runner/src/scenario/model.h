#pragma once
// The scenario model: what a scenario file says, after validation. Values that
// may hold `${...}` references stay as written; they are interpolated when the
// step runs, because captures of earlier steps are only known then.
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace runner {

using Json = nlohmann::json;
using Millis = std::chrono::milliseconds;
using StringPairs = std::vector<std::pair<std::string, std::string>>;

// 1-based line and column, like compilers print them.
struct SourcePos {
  std::string file;
  int line = 0;
  int column = 0;
  std::string str() const;  // "file:line:col"
};

struct RequestSpec {
  std::string method = "GET";
  std::string path;  // relative to the API base unless it starts with /services/ or /__admin
  StringPairs query;
  StringPairs headers;
  enum class Body { kNone, kJson, kRaw, kForm } body = Body::kNone;
  Json json;         // kJson
  std::string raw;   // kRaw
  StringPairs form;  // kForm
  bool auth = true;  // the runner adds its bearer token
  Millis timeout{30000};
  SourcePos pos;
};

struct Expectation {
  std::optional<Json> status;                         // number, list of numbers, or a matcher
  std::vector<std::pair<std::string, Json>> headers;  // name -> string or matcher
  std::optional<Json> json;                           // subset by default
  bool exact = false;                                 // json must match key for key
  std::optional<Json> body;                           // raw text: string or matcher
  std::optional<Json>
      csv;               // the body as CSV: {columns, rows, count, delimiter} (eval/csv_expect.h)
  bool contract = true;  // check against the contract checker
  SourcePos pos;
  // Where each assertion is written, so a failure points at its own line:
  SourcePos status_pos, body_pos, json_pos, csv_pos;
  std::vector<SourcePos> header_pos;                   // beside `headers`
  std::map<std::string, std::pair<int, int>> json_at;  // pointer into `json` -> line, column
  std::map<std::string, std::pair<int, int>> csv_at;   // pointer into `csv` -> line, column
  bool empty() const { return !status && headers.empty() && !json && !body && !csv; }
};

struct Capture {
  std::string var;
  enum class From { kBody, kHeader, kStatus } from = From::kBody;
  std::string path;    // JSONPath subset or JSON pointer, for kBody
  std::string header;  // for kHeader
  std::string regex;   // optional: keep the first group (or the whole match)
  SourcePos pos;
};

struct RequestStep {
  RequestSpec request;
  Expectation expect;
};

struct AwaitWebhookStep {
  Json type;   // string or matcher; null for any type
  Json match;  // partial match over the whole event body; null for any
  Millis timeout{10000};
  bool contract = true;
};

struct PspStep {
  std::string redirect;               // a RedirectURL; the session is its last path segment
  std::string session;                // or the session itself
  std::string outcome;                // success | failure | cancel
  std::string card_number;            // optional: a magic test card
  std::string iban;                   // optional: the account on a bank method's page
  std::string email;                  // optional: the login on a wallet's page
  std::string challenge;              // optional: pass | fail, the answer to a challenge card
  std::optional<Expectation> expect;  // on the driver's answer {session, status, redirect}
};

struct ClockStep {
  std::string advance;  // "90m", "30d"
  std::string set;      // ISO 8601 instant
};

struct PollStep {
  RequestSpec request;
  Expectation expect;
  std::optional<Expectation> halt;  // when this holds, fail at once
  Millis timeout{30000};
  Millis interval{500};
};

// SOQL through the org's REST data API (GET /services/data/vNN.0/query),
// every batch of the answer followed, so it runs on a sandbox as on the fake.
struct QueryStep {
  std::string soql;     // `${...}` values are escaped as the inside of a string literal
  bool all = false;     // queryAll: deleted records too
  std::string version;  // "59.0"; empty: the session's
  Expectation expect;
  SourcePos pos;
};

// One part of a bulk step's CSV, in order: text as written (with `${...}`),
// a file's text as it is, or a line written `repeat` times, `${i}` in it
// numbering them from `from`, each followed by the job's line ending.
struct CsvPart {
  std::string text;
  bool literal = false;  // a file's text: no `${...}` in it is interpolated
  long repeat = 0;       // 0: `text` once
  long from = 1;
};

// Bulk API 2.0 ingest in one step (/services/data/vNN.0/jobs/ingest): create
// the job, upload its CSV, close it (or abort it), wait until it ends, then
// check the job and each result CSV asked for. Only the REST API: it runs
// on a sandbox as on the fake.
struct BulkStep {
  std::string object;
  std::string operation = "insert";  // insert | update | upsert | delete | hardDelete
  std::string external_id;           // upsert: externalIdFieldName
  std::string delimiter;             // COMMA, TAB, ...; empty: the API's (COMMA)
  std::string line_ending;           // LF | CRLF; empty: the API's (LF)
  std::vector<CsvPart> data;
  bool abort = false;     // PATCH Aborted instead of UploadComplete
  std::string version;    // "59.0"; empty: the session's
  Millis timeout{60000};  // for the job to end
  Expectation expect;     // on the ended job; without json: its state JobComplete (Aborted)
  std::optional<Expectation> successful, failed, unprocessed;  // the result CSVs
  SourcePos pos;
};

enum class StepKind { kRequest, kAwaitWebhook, kPsp, kClock, kPoll, kQuery, kBulk };
const char* to_string(StepKind k);

struct Step {
  std::string name;  // as written, or made up from the request line
  StepKind kind = StepKind::kRequest;
  std::variant<RequestStep, AwaitWebhookStep, PspStep, ClockStep, PollStep, QueryStep, BulkStep>
      body;
  std::vector<Capture> captures;
  SourcePos pos;

  // Steps that reach the fake's admin API, which a real org does not have.
  bool needs_admin() const;
};

struct Scenario {
  std::string file;  // path as found (relative to the working directory when given so)
  std::string name;
  std::string description;
  std::vector<std::string> tags;
  std::string fixture;       // as written; empty means the target's default
  std::string fixture_path;  // resolved file path when `fixture` names a file, else empty
  SourcePos fixture_pos;
  std::vector<std::pair<std::string, Json>> vars;  // in order: later ones may use earlier ones
  std::vector<Step> steps;
  SourcePos pos;

  // Index of the first step needing the fake's admin API, if any.
  std::optional<size_t> first_admin_step() const;
  bool has_tag(const std::string& t) const;
};

// Paths that address the org's instance rather than the API base:
// /services/..., /__admin..., /id/... (the identity service).
bool is_absolute_org_path(const std::string& path);

}  // namespace runner
