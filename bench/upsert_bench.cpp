// Upsert by external id against orgs of growing size: each upsert looks its
// value up through the field's index (ext:Contact.External_Donor_Id__c), so
// its p50 stays flat from 1,000 to 1,000,000 contacts. Half the upserts
// update a seeded contact, half create one. In-process: the domain's
// upsert_sobject, one write transaction each, no HTTP.
//
//   build/bin/upsert-bench --sizes 1000,1000000 --upserts 2000
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>

#include "domain/data/sobject_upsert.h"
#include "domain/store/record_store.h"
#include "fixture/fixture_loader.h"
#include "seed.h"

using namespace fake_org;
using fake_org::bench::percentile;
using Wall = std::chrono::steady_clock;

namespace {

// Contacts with an external id "D<k>", 10,000 to a transaction.
void seed_external_ids(Org& org, size_t n) {
  const size_t batch = 10000;
  for (size_t done = 0; done < n;) {
    const size_t todo = std::min(batch, n - done);
    org.records().write<Ok>([&](Transaction& tx) -> Status {
      for (size_t i = 0; i < todo; ++i) {
        Record r;
        r.object = "Contact";
        r.id = org.ids().record_id("003");
        const size_t k = done + i;
        r.fields = {{"LastName", "Donor" + std::to_string(k)},
                    {"External_Donor_Id__c", "D" + std::to_string(k)}};
        tx.put(std::move(r));
      }
      return ok_status();
    });
    done += todo;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Upsert by external id latency by org size"};
  std::vector<size_t> sizes{1000, 1000000};
  size_t upserts = 2000;
  app.add_option("--sizes", sizes, "Contacts in the org before measuring")->delimiter(',');
  app.add_option("--upserts", upserts, "Upserts measured per size");
  CLI11_PARSE(app, argc, argv);

  auto load = load_embedded_fixture("default.yaml");
  if (!load.ok()) {
    std::fprintf(stderr, "%s\n", load.error_text().c_str());
    return 2;
  }
  std::printf("%10s %-8s %8s %10s %10s %10s\n", "records", "upsert", "runs", "p50 ms", "p90 ms",
              "p99 ms");
  for (size_t size : sizes) {
    auto created = Org::create(*load.config);
    if (!created.ok()) return 2;
    Org& org = *created.value();
    seed_external_ids(org, size);
    const size_t records = org.records().read([](const RecordStore& s) { return s.size(); });
    std::vector<double> updates, creates;
    for (size_t i = 0; i < upserts; ++i) {
      const bool update = i % 2 == 0;
      // Spread over the whole org, so no lookup is served warm by the last.
      const std::string value =
          update ? "d" + std::to_string((i * 7919) % size) : "NEW" + std::to_string(i);
      const nlohmann::json body = {{"LastName", "Upserted" + std::to_string(i)}};
      auto t0 = Wall::now();
      auto out = data::upsert_sobject(org, "Contact", "External_Donor_Id__c", value, body);
      const double ms = std::chrono::duration<double, std::milli>(Wall::now() - t0).count();
      if (!out.ok() || out->created == update || !out->matches.empty()) {
        std::fprintf(stderr, "upsert %s: %s\n", value.c_str(),
                     out.ok() ? "wrong outcome" : out.errors().front().message.c_str());
        return 1;
      }
      (update ? updates : creates).push_back(ms);
    }
    for (auto* v : {&updates, &creates})
      std::printf("%10zu %-8s %8zu %10.4f %10.4f %10.4f\n", records,
                  v == &updates ? "update" : "create", v->size(), percentile(*v, 0.5),
                  percentile(*v, 0.9), percentile(*v, 0.99));
  }
  return 0;
}
