// POST /PaymentIntent latency against orgs of growing size: with indexes the
// p50 stays flat from 1,000 to 100,000 records. Real HTTP on
// loopback, one keep-alive client, deduplicating payers (index lookups on
// every request).
//
//   build/bin/intent-bench --sizes 1000,10000,100000 --requests 2000
#include <httplib.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "app/embedded.h"
#include "fixture/fixture_loader.h"
#include "seed.h"

using namespace fake_org;
using fake_org::bench::percentile;
using fake_org::bench::seed_contacts;
using Wall = std::chrono::steady_clock;

int main(int argc, char** argv) {
  CLI::App app{"POST /PaymentIntent latency by org size"};
  std::vector<size_t> sizes{1000, 10000, 100000};
  size_t requests = 2000;
  app.add_option("--sizes", sizes, "Contacts in the org before measuring")->delimiter(',');
  app.add_option("--requests", requests, "Requests measured per size");
  CLI11_PARSE(app, argc, argv);

  auto load = load_embedded_fixture("default.yaml");
  if (!load.ok()) {
    std::fprintf(stderr, "%s\n", load.error_text().c_str());
    return 2;
  }
  std::printf("%10s %10s %10s %10s %10s %12s\n", "records", "requests", "p50 ms", "p90 ms",
              "p99 ms", "req/s");
  for (size_t size : sizes) {
    auto org = EmbeddedOrg::start(*load.config);
    seed_contacts(org->org(), size);
    httplib::Client c("127.0.0.1", org->port());
    c.set_tcp_nodelay(true);
    c.set_keep_alive(true);
    auto tok =
        c.Post("/services/oauth2/token", httplib::Params{{"grant_type", "client_credentials"},
                                                         {"client_id", "local-client"},
                                                         {"client_secret", "local-secret"}});
    std::string token = nlohmann::json::parse(tok->body)["access_token"];
    httplib::Headers h{{"Authorization", "Bearer " + token}};
    std::vector<double> ms;
    ms.reserve(requests);
    auto start = Wall::now();
    for (size_t i = 0; i < requests; ++i) {
      // Half the payers match a seeded contact, half are new.
      size_t k = i % 2 ? (i * 7919) % size : size + i;
      nlohmann::json body = {{"SuccessURL", "https://shop.example/ok"},
                             {"FailureURL", "https://shop.example/ko"},
                             {"Payer",
                              {{"AllowDeduplication", true},
                               {"Contact",
                                {{"CrmFields",
                                  {{"LastName", "Donor" + std::to_string(k)},
                                   {"Email", "donor" + std::to_string(k) + "@example.org"}}}}}}},
                             {"OneTime", {{"Amount", 10 + static_cast<int>(i % 50)}}},
                             {"PaymentMethod", {{"Name", "CreditCard"}}}};
      auto t0 = Wall::now();
      auto r =
          c.Post("/services/apexrest/cpm/v2/PaymentIntent", h, body.dump(), "application/json");
      ms.push_back(std::chrono::duration<double, std::milli>(Wall::now() - t0).count());
      if (!r || r->status != 200) {
        std::fprintf(stderr, "request %zu failed: %d %s\n", i, r ? r->status : 0,
                     r ? r->body.c_str() : "");
        return 1;
      }
    }
    double secs = std::chrono::duration<double>(Wall::now() - start).count();
    size_t records = org->org().records().read([](const RecordStore& s) { return s.size(); });
    std::printf("%10zu %10zu %10.3f %10.3f %10.3f %12.0f\n", records, requests, percentile(ms, 0.5),
                percentile(ms, 0.9), percentile(ms, 0.99), requests / secs);
  }
  return 0;
}
