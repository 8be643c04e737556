#include "soql.h"

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>

#include "domain/org/soql_cursors.h"
#include "domain/store/record_store.h"
#include "soql_children.h"
#include "soql_parser.h"
#include "util/json_text.h"
#include "util/thread_cache.h"

namespace fake_org::soql {

namespace {

TimePoint now_of(const Org& org, const QueryOptions& options) {
  return options.now ? *options.now : org.clock_ptr()->now();
}

std::string version_of(const Org& org, const QueryOptions& options) {
  return options.api_version.empty() ? org.config().org.api_version : options.api_version;
}

// Shows the batch from `start` and, when more follow, names them.
QueryPage page_of(const Org& org, const QueryCursor& cursor, const std::string& cursor_id,
                  size_t start, const std::string& api_version, TimePoint now) {
  QueryPage page;
  page.total_size = cursor.rows.size();
  size_t end = start;
  org.records().read([&](const RecordStore& store) {
    ShownBatch batch = show_batch(org, cursor, start, store, api_version, now);
    page.records = std::move(batch.records);
    end = batch.end;
    return 0;
  });
  page.done = end >= cursor.rows.size();
  if (!page.done) {
    page.locator = cursor_id + "-" + std::to_string(end);
    page.next_records_url = "/services/data/v" + api_version + "/query/" + page.locator;
  }
  return page;
}

// AggregateResult rows: one batch, never a cursor.
SoqlResult<QueryPage> run_aggregate(const Org& org, const BoundQuery& query, QueryPage page) {
  std::optional<SoqlError> error;
  org.records().read([&](const RecordStore& store) {
    auto rows = evaluate_aggregate(query, store, page.plan);
    if (!rows) {
      error = rows.error();
      return 0;
    }
    for (auto& row : *rows) page.records.push_back(std::move(row));
    return 0;
  });
  if (error) return *error;
  page.total_size = page.records.size();
  return page;
}

// queryAll reads deleted children too.
void include_deleted_children(BoundQuery& q) {
  for (auto& c : q.children) {
    c.query->include_deleted = q.include_deleted;
    include_deleted_children(*c.query);
  }
}

// A query text's parse and bindings, kept per thread for the last texts seen
// (decisions 209, 212): a client runs the same SOQL again and again, and
// parsing was a quarter of an indexed query's instructions, binding another
// twelfth. A parse depends on the text alone. A binding also reads the org's
// catalogue and today's date (date literals), so it is kept with the
// catalogue it read (held, so its address is never another's) and the date,
// and used again only while both are the same. Only what parsed and bound is
// kept, and no text past kSoqlParsesTextAtMost.
constexpr size_t kSoqlParsesKept = 32;
constexpr size_t kSoqlParsesTextAtMost = 4096;

struct KeptBinding {
  std::shared_ptr<const OrgConfig> config;
  Date today;
  std::shared_ptr<const BoundQuery> bound;
};

struct KeptText {
  std::shared_ptr<const Query> parse;
  KeptBinding bindings[2];  // by include_deleted: query, then queryAll
};

using KeptTexts = std::unordered_map<std::string, KeptText>;

KeptTexts& kept_texts() {
  thread_local KeptTexts texts;
  // A reset gives the parses back with the rest of a thread's caches.
  thread_local const bool hooked =
      (util::on_thread_give_back([] { KeptTexts().swap(texts); }), true);
  (void)hooked;
  return texts;
}

SoqlResult<std::shared_ptr<const Query>> parse_cached(std::string_view soql, KeptText** kept) {
  auto& texts = kept_texts();
  std::string key(soql);
  if (auto found = texts.find(key); found != texts.end()) {
    *kept = &found->second;
    return found->second.parse;
  }
  auto parsed = parse_soql(soql);
  if (!parsed) return parsed.error();
  auto query = std::make_shared<const Query>(std::move(parsed.value()));
  if (soql.size() <= kSoqlParsesTextAtMost) {
    if (texts.size() >= kSoqlParsesKept) texts.clear();
    *kept = &texts.emplace(std::move(key), KeptText{query, {}}).first->second;
  }
  return query;
}

// The query bound to the org's catalogue as of `now`, with queryAll's
// deleted records or without.
SoqlResult<std::shared_ptr<const BoundQuery>> bind_cached(const Org& org, std::string_view soql,
                                                          TimePoint now, bool include_deleted) {
  KeptText* kept = nullptr;
  auto parsed = parse_cached(soql, &kept);
  if (!parsed) return parsed.error();
  auto config = org.config_ptr();
  const Date today = date_of(now);
  if (kept) {
    const KeptBinding& b = kept->bindings[include_deleted ? 1 : 0];
    if (b.bound && b.config == config && b.today == today) return b.bound;
  }
  auto bound = bind_query(config, soql, **parsed, now);
  if (!bound) return bound.error();
  bound->include_deleted = include_deleted;
  include_deleted_children(*bound);
  auto shared = std::make_shared<const BoundQuery>(std::move(bound.value()));
  if (kept) kept->bindings[include_deleted ? 1 : 0] = {std::move(config), today, shared};
  return shared;
}

SoqlError bad_locator() {
  return plain_error(soql_code::kInvalidLocator, "invalid query locator");
}

}  // namespace

nlohmann::ordered_json QueryPage::to_json() const {
  nlohmann::ordered_json j = {{"totalSize", total_size}, {"done", done}};
  if (!done) j["nextRecordsUrl"] = next_records_url;
  j["records"] = records;
  return j;
}

std::string QueryPage::to_text() const {
  std::string out;
  out.reserve(64 + next_records_url.size() + records.size() * 128);
  out += "{\"totalSize\":";
  text::json_text_detail::append_integer(out, total_size);
  out += done ? ",\"done\":true" : ",\"done\":false";
  if (!done) {
    const std::string url = text::json_text(nlohmann::ordered_json(next_records_url));
    out += ",\"nextRecordsUrl\":";
    out += url;
  }
  out += ",\"records\":";
  // Text needing escapes (or not UTF-8) goes through nlohmann's dump, as
  // json_text would; the common plain batch never does.
  const size_t records_at = out.size();
  if (!text::json_text_detail::write_plain(records, out)) {
    out.resize(records_at);
    out += text::json_text(records);
  }
  out += '}';
  return out;
}

SoqlResult<QueryPage> run_query(const Org& org, std::string_view soql,
                                const QueryOptions& options) {
  const TimePoint now = now_of(org, options);
  auto bound = bind_cached(org, soql, now, options.include_deleted);
  if (!bound) return bound.error();
  std::shared_ptr<const BoundQuery> query = std::move(bound.value());
  const std::string api_version = version_of(org, options);
  if (auto deep = check_child_levels(*query, soql, api_version)) return *deep;

  auto cursor = std::make_shared<QueryCursor>();
  cursor->query = query;
  cursor->api_version = api_version;
  cursor->batch_size = std::clamp(options.batch_size, kMinBatchSize, kMaxBatchSize);
  QueryPlan plan;
  QueryPage page;
  if (query->aggregate) return run_aggregate(org, *query, std::move(page));
  // The first batch is shown under the same lock that found the rows, so
  // its parents and children are those of the same moment.
  size_t end = 0;
  org.records().read([&](const RecordStore& store) {
    cursor->rows = evaluate(*query, store, plan);
    if (query->count) return 0;
    ShownBatch batch = show_batch(org, *cursor, 0, store, api_version, now);
    page.records = std::move(batch.records);
    end = batch.end;
    return 0;
  });
  page.plan = plan;
  page.total_size = cursor->rows.size();
  if (query->count || end >= cursor->rows.size()) return page;
  page.done = false;
  const std::string id = org.query_cursors().open(cursor, now);
  page.locator = id + "-" + std::to_string(end);
  page.next_records_url = "/services/data/v" + api_version + "/query/" + page.locator;
  return page;
}

SoqlResult<QueryPage> next_page(const Org& org, std::string_view locator,
                                const QueryOptions& options) {
  const size_t dash = locator.rfind('-');
  if (dash == std::string_view::npos || dash + 1 >= locator.size() || locator.size() - dash > 10)
    return bad_locator();
  size_t start = 0;
  for (char c : locator.substr(dash + 1)) {
    if (c < '0' || c > '9') return bad_locator();
    start = start * 10 + static_cast<size_t>(c - '0');
  }
  const std::string id(locator.substr(0, dash));
  auto cursor = org.query_cursors().find(id, now_of(org, options));
  if (!cursor || start == 0 || start >= cursor->rows.size()) return bad_locator();
  const std::string api_version =
      options.api_version.empty() ? cursor->api_version : options.api_version;
  return page_of(org, *cursor, id, start, api_version, now_of(org, options));
}

}  // namespace fake_org::soql
