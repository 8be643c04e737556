// SOQL latency against orgs of growing size: equality on an indexed field
// (Email, the default fixture's first deduplication rule) reads the index,
// so its p50 stays flat from 1,000 to 1,000,000 contacts; a scan
// of the same object is shown beside it for contrast. A semi-join whose
// sub-select is indexed stays as flat (its ids feed the outer planner);
// an aggregate over a grouped indexed lookup likewise, and one over the
// whole object reads every record. A parent-to-child subquery (an account
// by id, its 100 contacts nested and ordered) finds the children through
// the AccountId index, one lookup per parent, so it stays as flat. In-process:
// the domain's run_query, no HTTP.
//
//   build/bin/soql-bench --sizes 1000,1000000 --queries 2000
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

#include "domain/soql/soql.h"
#include "domain/store/record_store.h"
#include "fixture/fixture_loader.h"
#include "seed.h"

using namespace fake_org;
using fake_org::bench::percentile;
using fake_org::bench::seed_contacts;
using Wall = std::chrono::steady_clock;

namespace {

// Milliseconds per query of `make(i)` over `n` queries, and the records
// the last one read; fails on any error, on a plan other than `want`, or on
// other than `rows` rows.
bool measure(const Org& org, size_t n, const std::function<std::string(size_t)>& make,
             soql::QueryPlan::Kind want, std::vector<double>& ms, size_t& candidates,
             size_t rows = 1) {
  ms.clear();
  for (size_t i = 0; i < n; ++i) {
    const std::string q = make(i);
    auto t0 = Wall::now();
    auto page = soql::run_query(org, q);
    ms.push_back(std::chrono::duration<double, std::milli>(Wall::now() - t0).count());
    if (!page.ok() || page->plan.kind != want || page->total_size != rows) {
      std::fprintf(stderr, "%s: %s\n", q.c_str(),
                   page.ok() ? soql::to_string(page->plan.kind) : page.error().message.c_str());
      return false;
    }
    candidates = page->plan.candidates;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"SOQL query latency by org size"};
  std::vector<size_t> sizes{1000, 1000000};
  size_t queries = 2000;
  size_t scans = 5;
  app.add_option("--sizes", sizes, "Contacts in the org before measuring")->delimiter(',');
  app.add_option("--queries", queries, "Indexed queries measured per size");
  app.add_option("--scans", scans, "Unindexed queries measured per size (0: none)");
  CLI11_PARSE(app, argc, argv);

  auto load = load_embedded_fixture("default.yaml");
  if (!load.ok()) {
    std::fprintf(stderr, "%s\n", load.error_text().c_str());
    return 2;
  }
  std::printf("%10s %-10s %8s %10s %10s %10s %12s\n", "records", "query", "runs", "p50 ms",
              "p90 ms", "p99 ms", "candidates");
  for (size_t size : sizes) {
    auto created = Org::create(*load.config);
    if (!created.ok()) return 2;
    Org& org = *created.value();
    // One account per 100 contacts: the subquery case's parents.
    const std::vector<std::string> accounts =
        seed_contacts(org, size, std::max<size_t>(size / 100, 1));
    const size_t records = org.records().read([](const RecordStore& s) { return s.size(); });
    std::vector<double> ms;
    size_t read = 0;
    // Spread over the whole org, so no lookup is served warm by the last.
    auto indexed = [&](size_t i) {
      return "SELECT Id, LastName FROM Contact WHERE Email = 'donor" +
             std::to_string((i * 7919) % size) + "@example.org'";
    };
    auto report = [&](const char* name, size_t runs) {
      std::printf("%10zu %-10s %8zu %10.4f %10.4f %10.4f %12zu\n", records, name, runs,
                  percentile(ms, 0.5), percentile(ms, 0.9), percentile(ms, 0.99), read);
    };
    if (!measure(org, queries, indexed, soql::QueryPlan::Kind::kIndex, ms, read)) return 1;
    report("indexed", queries);
    auto semi_join = [&](size_t i) {
      return "SELECT Id FROM Contact WHERE Id IN (SELECT Id FROM Contact WHERE Email = 'donor" +
             std::to_string((i * 7919) % size) + "@example.org')";
    };
    if (!measure(org, queries, semi_join, soql::QueryPlan::Kind::kId, ms, read)) return 1;
    report("semi-join", queries);
    auto grouped = [&](size_t i) {
      return "SELECT LastName, COUNT(Id), MAX(CreatedDate) FROM Contact WHERE Email = 'donor" +
             std::to_string((i * 7919) % size) + "@example.org' GROUP BY LastName";
    };
    if (!measure(org, queries, grouped, soql::QueryPlan::Kind::kIndex, ms, read)) return 1;
    report("group-idx", queries);
    auto children = [&](size_t i) {
      return "SELECT Name, (SELECT LastName, Email FROM Contacts ORDER BY LastName) FROM Account "
             "WHERE Id = '" +
             accounts[(i * 7919) % accounts.size()] + "'";
    };
    if (!measure(org, queries, children, soql::QueryPlan::Kind::kId, ms, read)) return 1;
    report("subquery", queries);
    if (scans == 0) continue;
    auto scanned = [&](size_t i) {
      return "SELECT Id, LastName FROM Contact WHERE LastName = 'Donor" +
             std::to_string((i * 7919) % size) + "'";
    };
    if (!measure(org, scans, scanned, soql::QueryPlan::Kind::kScan, ms, read)) return 1;
    report("scan", scans);
    auto whole = [](size_t) {
      return std::string("SELECT COUNT(Id), MAX(CreatedDate) FROM Contact");
    };
    if (!measure(org, scans, whole, soql::QueryPlan::Kind::kScan, ms, read)) return 1;
    report("aggregate", scans);
  }
  return 0;
}
