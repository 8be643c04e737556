#pragma once
// GET sobjects/{Type}/updated and /deleted?start=&end=: the records of one
// object changed (created or updated) or deleted in a span of the org clock,
// for replication. As the platform: seconds are cut from start and end (a
// minute's resolution), start must come before end, updated looks back at
// most 30 days and deleted 15 (the recycle bin), and more than 600,000 ids
// is EXCEEDED_ID_LIMIT. A record counts once, at its last change: its
// SystemModstamp in [start, end). Reads under the store's shared lock.
#include <string_view>

#include <nlohmann/json.hpp>

#include "data_errors.h"
#include "domain/org/org.h"

namespace fake_org::data {

inline constexpr size_t kMaxReplicationIds = 600000;

enum class Replication { kUpdated, kDeleted };

// {ids, latestDateCovered} or {deletedRecords: [{id, deletedDate}],
// earliestDateAvailable, latestDateCovered}. NOT_FOUND for an unknown type;
// MISSING_ARGUMENT without start or end; INVALID_DATE_FORMAT for a time
// that is no ISO 8601 date-time; INVALID_REPLICATION_DATE for a span that
// is empty or begins too long ago.
DataResult<nlohmann::ordered_json> replication_list(const Org& org, std::string_view type,
                                                    Replication kind, std::string_view start,
                                                    std::string_view end);

}  // namespace fake_org::data
