#include "sobject_replication.h"

#include <algorithm>

#include "domain/core/clock.h"
#include "domain/soql/soql_eval.h"
#include "domain/store/record_store.h"
#include "util/calendar.h"

namespace fake_org::data {

namespace {

constexpr int64_t kMinuteMs = 60'000;
constexpr int64_t kDayMs = 86'400'000;

int64_t to_minute(int64_t ms) {
  return ms - ((ms % kMinuteMs) + kMinuteMs) % kMinuteMs;
}

int64_t millis_of(TimePoint t) {
  return t.time_since_epoch().count();
}

std::string shown(int64_t ms) {
  return soql::format_soql_datetime(TimePoint(Millis(ms)));
}

// A query parameter's instant, its seconds cut; a '+' a client left
// unencoded arrives as a space and is read as the '+' it was.
DataResult<int64_t> instant_of(std::string_view name, std::string_view text) {
  if (text.empty()) return data_error(code::kMissingArgument, std::string(name) + " is required");
  std::string s(text);
  for (char& c : s)
    if (c == ' ') c = '+';
  auto t = parse_iso8601(s);
  if (!t)
    return data_error(code::kInvalidDateFormat,
                      std::string(name) + ": '" + std::string(text) +
                          "' is no date-time like 2027-01-05T08:00:00+00:00 (ISO 8601, UTC)");
  return to_minute(millis_of(*t));
}

}  // namespace

DataResult<nlohmann::ordered_json> replication_list(const Org& org, std::string_view type,
                                                    Replication kind, std::string_view start,
                                                    std::string_view end) {
  const ObjectDef* def = org.config().object(type);
  if (!def) return data_error(code::kNotFound, kNoResource);
  auto from = instant_of("start", start);
  if (!from.ok()) return from.errors();
  auto to = instant_of("end", end);
  if (!to.ok()) return to.errors();
  const int64_t now = to_minute(millis_of(org.clock_ptr()->now()));
  const bool deleted = kind == Replication::kDeleted;
  const int64_t earliest = now - (deleted ? 15 : 30) * kDayMs;
  if (*from >= *to)
    return data_error(code::kInvalidReplicationDate,
                      "startDate must chronologically precede endDate");
  if (*from < earliest)
    return data_error(code::kInvalidReplicationDate, std::string("startDate cannot be more than ") +
                                                         (deleted ? "15" : "30") + " days ago");
  const int64_t covered = std::min(*to, now);
  nlohmann::ordered_json items = nlohmann::ordered_json::array();
  bool over = false;
  org.records().read([&](const RecordStore& store) {
    // The object's records once each: a replication call is rare and reads
    // a span of all of them (decisions 144).
    const IdList ids = store.ids_of(def->api_name);
    for (size_t i = 0; i < ids.size() && !over; ++i) {
      const RecordPtr& r = ids.record(i);
      const int64_t at = millis_of(r->modified);
      if (r->deleted != deleted || at < *from || at >= covered) continue;
      if (items.size() == kMaxReplicationIds)
        over = true;
      else if (deleted)
        items.push_back({{"id", std::string(r->id)}, {"deletedDate", shown(at)}});
      else
        items.push_back(std::string(r->id));
    }
  });
  if (over)
    return data_error(code::kExceededIdLimit,
                      "more than 600,000 ids: choose start and end dates closer together");
  if (!deleted)
    return nlohmann::ordered_json{{"ids", std::move(items)}, {"latestDateCovered", shown(covered)}};
  return nlohmann::ordered_json{{"deletedRecords", std::move(items)},
                                {"earliestDateAvailable", shown(earliest)},
                                {"latestDateCovered", shown(covered)}};
}

}  // namespace fake_org::data
