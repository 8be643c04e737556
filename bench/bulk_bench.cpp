// Bulk API 2.0 through the domain (no HTTP): an ingest job of N contact
// rows from one CSV to JobComplete, then a query job exporting every
// contact, its pages read as a client would. Prints seconds and the
// process's peak resident memory.
//
//   build/bin/bulk-bench --rows 1000000
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <string>

#include "domain/bulk/bulk_jobs.h"
#include "domain/store/record_store.h"
#include "fixture/fixture_loader.h"

using namespace fake_org;
using Wall = std::chrono::steady_clock;

namespace {

std::string contacts_csv(size_t rows) {
  std::string csv = "FirstName,LastName,Email,External_Donor_Id__c\n";
  csv.reserve(rows * 60);
  for (size_t i = 0; i < rows; ++i) {
    const std::string n = std::to_string(i);
    csv += "Bulk,\"Donor " + n + "\",bulk" + n + "@example.org,B-" + n + "\n";
  }
  return csv;
}

double seconds_since(Wall::time_point t0) {
  return std::chrono::duration<double>(Wall::now() - t0).count();
}

long peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Bulk API 2.0 ingest and export"};
  size_t rows = 1000000;
  app.add_option("--rows", rows, "Contact rows in the CSV");
  CLI11_PARSE(app, argc, argv);
  auto load = load_embedded_fixture("default.yaml");
  if (!load.ok()) return 2;
  auto created = Org::create(*load.config);
  if (!created.ok()) return 2;
  std::shared_ptr<Org> org = created.value();
  bulk::BulkJobs jobs(org);

  std::string csv = contacts_csv(rows);
  const size_t csv_mb = csv.size() >> 20;
  auto t0 = Wall::now();
  auto job = jobs.create_ingest({{"object", "Contact"}, {"operation", "insert"}}, "59.0");
  const std::string id = (*job)["id"];
  if (!jobs.upload(id, std::move(csv)).ok()) return 1;
  if (!jobs.change_state(bulk::JobKind::kIngest, id, {{"state", "UploadComplete"}}).ok()) return 1;
  jobs.wait_idle();
  const double ingest_s = seconds_since(t0);
  auto info = *jobs.info(bulk::JobKind::kIngest, id);
  std::printf(
      "ingest  %zu rows (%zu MB CSV): %.2f s, state %s, processed %s, failed %s, peak RSS %ld MB\n",
      rows, csv_mb, ingest_s, info["state"].get<std::string>().c_str(),
      info["numberRecordsProcessed"].dump().c_str(), info["numberRecordsFailed"].dump().c_str(),
      peak_rss_mb());

  t0 = Wall::now();
  auto q =
      jobs.create_query({{"query", "SELECT Id, FirstName, LastName, Email FROM Contact"}}, "59.0");
  const std::string qid = (*q)["id"];
  jobs.wait_idle();
  size_t exported = 0;
  size_t bytes = 0;
  std::string locator;
  while (true) {
    auto page = jobs.query_results(qid, locator, "");
    if (!page.ok()) return 1;
    exported += page->records;
    bytes += page->csv.size();
    if (page->next_locator == "null") break;
    locator = page->next_locator;
  }
  std::printf("export  %zu rows (%zu MB CSV): %.2f s, peak RSS %ld MB\n", exported, bytes >> 20,
              seconds_since(t0), peak_rss_mb());
  return 0;
}
