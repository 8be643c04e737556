#pragma once
// What both benchmarks need besides the thing they measure: an org grown to
// a size without going through the API, and percentiles of latencies.
#include <algorithm>
#include <string>
#include <vector>

#include "domain/config/org_config.h"
#include "domain/core/ids.h"
#include "domain/org/org.h"
#include "domain/store/record_store.h"

namespace fake_org::bench {

// Seeds contacts straight into the store, in batches of 10,000 per write
// transaction: a benchmark measures requests or queries, not setup. With
// `accounts`, that many accounts first ("Household0"...), contact k then
// belonging to account k % accounts; their ids come back.
inline std::vector<std::string> seed_contacts(Org& org, size_t n, size_t accounts = 0) {
  std::vector<std::string> account_ids;
  org.records().write<Ok>([&](Transaction& tx) -> Status {
    for (size_t i = 0; i < accounts; ++i) {
      Record a;
      a.object = "Account";
      a.id = org.ids().record_id("001");
      a.fields = {{"Name", "Household" + std::to_string(i)}};
      account_ids.push_back(a.id);
      tx.put(std::move(a));
    }
    return ok_status();
  });
  const size_t batch = 10000;
  for (size_t done = 0; done < n;) {
    size_t todo = std::min(batch, n - done);
    org.records().write<Ok>([&](Transaction& tx) -> Status {
      for (size_t i = 0; i < todo; ++i) {
        Record r;
        r.object = "Contact";
        r.id = org.ids().record_id("003");
        size_t k = done + i;
        r.fields = {{"FirstName", "Seed"},
                    {"LastName", "Donor" + std::to_string(k)},
                    {"Email", "donor" + std::to_string(k) + "@example.org"},
                    {"MailingPostalCode", std::to_string(10000 + k % 90000)}};
        if (!account_ids.empty()) r.fields.set("AccountId", account_ids[k % account_ids.size()]);
        tx.put(std::move(r));
      }
      return ok_status();
    });
    done += todo;
  }
  return account_ids;
}

// The p-th percentile (0..1) of `v`, which it sorts.
inline double percentile(std::vector<double>& v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

}  // namespace fake_org::bench
