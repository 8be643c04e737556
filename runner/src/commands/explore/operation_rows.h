#pragma once
// The operation table's parts beyond the first rows (operations.cpp): one
// function per area, each appending its rows.
#include <string>
#include <vector>

#include "commands/explore/operations.h"

namespace runner::explore {

// A row with what every row names; the caller sets the rest.
Operation operation_row(std::string name, std::string operation_id, std::string method,
                        std::string path, std::string needs);

// GET /Payment/{ID}, paying an existing installment (spec 4.1, 4.7), a
// payer by ids, and the older /Payment's recurring payment and payer by ids.
void explore_more_payment_operations(std::vector<Operation>& ops);
// The data API's informational reads, replication lists, Tooling and queryAll,
// and an upsert by external id.
void explore_more_data_operations(std::vector<Operation>& ops);
// sObject collections, composite, batch, tree and graph.
void explore_composite_operations(std::vector<Operation>& ops);
// A Bulk ingest job's upload, close, wait, results and delete; job lists; a
// query job's wait, results and delete.
void explore_more_bulk_operations(std::vector<Operation>& ops);
// UserInfo and the identity URL, with the runner's own token.
void explore_identity_operations(std::vector<Operation>& ops);

}  // namespace runner::explore
