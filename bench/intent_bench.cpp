// POST /PaymentIntent latency against orgs of growing size, the store's write
// lock under concurrent clients, and memory per record. Real HTTP on
// loopback, keep-alive clients, deduplicating payers (index lookups on every
// request).
//
//   build/bin/intent-bench --sizes 1000,100000 --requests 2000
//   build/bin/intent-bench --sizes 1000 --clients 16      # write lock figures
//   build/bin/intent-bench --sizes 1000,1000000 --seed intents   # memory per intent
#include <httplib.h>
#include <malloc.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "app/embedded.h"
#include "domain/org/psp_sessions.h"
#include "domain/payments/payment_intents.h"
#include "domain/store/field_values.h"
#include "domain/store/record_store.h"
#include "fixture/fixture_loader.h"
#include "seed.h"
#include "util/slabs.h"

using namespace fake_org;
using fake_org::bench::percentile;
using fake_org::bench::seed_contacts;
using Wall = std::chrono::steady_clock;

namespace {

// Resident set size of this process, from /proc (bytes).
size_t rss_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stoul(line.substr(6)) * 1024;
  return 0;
}

// Bytes malloc has handed out and not had back, and the records' slabs
// mapped: what the records hold, without the freed holes RSS also counts.
size_t heap_bytes() {
  struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd + fake_org::util::slab_mapped_bytes();
}

nlohmann::json intent_body(size_t k, int amount) {
  return {{"SuccessURL", "https://shop.example/ok"},
          {"FailureURL", "https://shop.example/ko"},
          {"Payer",
           {{"AllowDeduplication", true},
            {"Contact",
             {{"CrmFields",
               {{"LastName", "Donor" + std::to_string(k)},
                {"Email", "donor" + std::to_string(k) + "@example.org"}}}}}}},
          {"OneTime", {{"Amount", amount}}},
          {"PaymentMethod", {{"Name", "CreditCard"}}}};
}

// One-time payment intents straight through the domain (each: a contact, an
// installment, an inbound report and a hosted-page session), on every core.
void seed_intents(Org& org, size_t n) {
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < std::max(1u, std::thread::hardware_concurrency()); ++t)
    workers.emplace_back([&] {
      PaymentIntents intents(org);
      for (size_t k; (k = next++) < n;) {
        auto r = intents.create(intent_body(k, 10), IntentContext{"http://127.0.0.1:1"});
        if (!r.ok()) {
          std::fprintf(stderr, "seed intent %zu failed: %s\n", k,
                       r.errors().front().message.c_str());
          std::exit(1);
        }
      }
    });
  for (auto& w : workers) w.join();
}

struct Measured {
  std::vector<double> ms;
  double seconds = 0;
};

// `clients` keep-alive connections, each sending its share of `requests`;
// half the payers match a seeded contact, half are new.
Measured measure(int port, const std::string& token, size_t size, size_t requests, size_t clients) {
  Measured out;
  std::vector<std::vector<double>> per(clients);
  std::atomic<bool> failed{false};
  auto start = Wall::now();
  std::vector<std::thread> threads;
  for (size_t c = 0; c < clients; ++c)
    threads.emplace_back([&, c] {
      httplib::Client cl("127.0.0.1", port);
      cl.set_tcp_nodelay(true);
      cl.set_keep_alive(true);
      httplib::Headers h{{"Authorization", "Bearer " + token}};
      for (size_t i = c; i < requests && !failed; i += clients) {
        size_t k = i % 2 ? (i * 7919) % size : size + i + c * requests;
        std::string body = intent_body(k, 10 + static_cast<int>(i % 50)).dump();
        auto t0 = Wall::now();
        auto r = cl.Post("/services/apexrest/cpm/v2/PaymentIntent", h, body, "application/json");
        per[c].push_back(std::chrono::duration<double, std::milli>(Wall::now() - t0).count());
        if (!r || r->status != 200) {
          std::fprintf(stderr, "request %zu failed: %d %s\n", i, r ? r->status : 0,
                       r ? r->body.c_str() : "");
          failed = true;
        }
      }
    });
  for (auto& t : threads) t.join();
  if (failed) std::exit(1);
  out.seconds = std::chrono::duration<double>(Wall::now() - start).count();
  for (auto& v : per) out.ms.insert(out.ms.end(), v.begin(), v.end());
  return out;
}

// One object's bytes per record in their parts: its block (the Record,
// field entries, values by field, GUID, malloc's share) and each table.
void print_parts(const ObjectMemory& m) {
  const double n = static_cast<double>(m.records);
  std::printf("      block: Record %.1f, field entries %.1f, values %.1f, GUID %.1f, malloc %.1f\n",
              m.header_bytes / n, m.entry_bytes / n, m.value_bytes / n, m.guid_bytes / n,
              m.malloc_bytes / n);
  std::vector<ObjectMemory::Field> fields = m.fields;
  std::sort(fields.begin(), fields.end(),
            [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
  for (const auto& f : fields)
    std::printf("        %-40s %7.1f B  (in %5.1f %% of records)\n", f.name.c_str(), f.bytes / n,
                100.0 * static_cast<double>(f.records) / n);
  for (const auto& [table, bytes] : m.tables)
    if (bytes) std::printf("      table %-44s %7.1f B\n", table.c_str(), bytes / n);
}

// Each object's records: how many, the bytes of their own blocks (record,
// fields, GUID) and of their share of the store's tables, per record; with
// `detail`, each in its parts.
// Sessions, events and the rest are what the heap per seed holds beyond.
void print_breakdown(Org& org, size_t seeded, bool detail, double heap_per_seed) {
  auto use = org.records().read([](const RecordStore& s) { return s.memory_by_object(); });
  size_t all = 0;
  std::printf("  %-26s %9s %12s %12s %12s\n", "object", "records", "own B each", "tables B each",
              "total B each");
  for (const auto& m : use) {
    if (!m.records) continue;
    all += m.record_bytes + m.index_bytes;
    const double n = static_cast<double>(m.records);
    std::printf("  %-26s %9zu %12.0f %12.0f %12.0f\n", m.object.c_str(), m.records,
                m.record_bytes / n, m.index_bytes / n, (m.record_bytes + m.index_bytes) / n);
    if (detail) print_parts(m);
  }
  std::printf("  %-26s %9s %38.0f per seed\n", "every record", "",
              seeded ? static_cast<double>(all) / static_cast<double>(seeded) : 0.0);
  std::printf("  %-26s %9s %38zu in all\n", "texts kept once per field", "",
              FieldValues::heap_bytes());
  const size_t sessions = org.psp_sessions().size();
  const double session_bytes = static_cast<double>(org.psp_sessions().heap_bytes());
  if (sessions)
    std::printf("  %-26s %9zu %38.0f each\n", "PSP sessions", sessions,
                session_bytes / static_cast<double>(sessions));
  if (seeded)
    std::printf(
        "  %-26s %9s %38.0f per seed\n", "the heap's rest", "",
        heap_per_seed - (static_cast<double>(all) + session_bytes) / static_cast<double>(seeded));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"POST /PaymentIntent latency, write lock and memory by org size"};
  std::vector<size_t> sizes{1000, 10000, 100000};
  size_t requests = 2000;
  size_t clients = 1;
  std::string seed = "contacts";
  app.add_option("--sizes", sizes, "Records seeded before measuring")->delimiter(',');
  app.add_option("--requests", requests, "Requests measured per size");
  app.add_option("--clients", clients, "Concurrent keep-alive clients")->check(CLI::Range(1, 512));
  app.add_option("--seed", seed, "What to seed: contacts, or one-time payment intents")
      ->check(CLI::IsMember({"contacts", "intents"}));
  bool breakdown = false;
  app.add_flag("--breakdown", breakdown, "After each size, bytes per record by object");
  bool parts = false;
  app.add_flag("--parts", parts,
               "With --breakdown: each object's bytes in parts (header, entries, values by "
               "field, GUID, malloc, each table)");
  CLI11_PARSE(app, argc, argv);

  auto load = load_embedded_fixture("default.yaml");
  if (!load.ok()) {
    std::fprintf(stderr, "%s\n", load.error_text().c_str());
    return 2;
  }
  std::printf("%9s %9s %8s %8s %8s %8s %9s %11s %10s %8s %9s %9s %9s %8s\n", "seeded", "records",
              "requests", "p50 ms", "p90 ms", "p99 ms", "req/s", "bytes/seed", "heap/seed",
              "RSS MB", "lock p50", "lock p99", "lock max", "retried");
  for (size_t size : sizes) {
    auto org = EmbeddedOrg::start(*load.config);
    Org& o = org->org();
    const size_t before = rss_bytes();
    const size_t heap_before = heap_bytes();
    if (seed == "intents")
      seed_intents(o, size);
    else
      seed_contacts(o, size);
    malloc_trim(0);  // count what the records hold, not the freed seeding garbage
    const double per_seed = size ? static_cast<double>(rss_bytes() - before) / size : 0;
    const double heap_per_seed = size ? static_cast<double>(heap_bytes() - heap_before) / size : 0;
    const double rss_mb = static_cast<double>(rss_bytes()) / 1e6;  // the whole process
    httplib::Client c("127.0.0.1", org->port());
    auto tok =
        c.Post("/services/oauth2/token", httplib::Params{{"grant_type", "client_credentials"},
                                                         {"client_id", "local-client"},
                                                         {"client_secret", "local-secret"}});
    std::string token = nlohmann::json::parse(tok->body)["access_token"];
    const WriteLockStats before_lock = o.records().write_lock_stats();
    Measured m = measure(org->port(), token, size, requests, clients);
    WriteLockStats lock = o.records().write_lock_stats();
    for (size_t us = 0; us < lock.by_us.size(); ++us) {
      lock.by_us[us] -= before_lock.by_us[us];
    }
    lock.holds -= before_lock.holds;
    size_t max_us = 0;
    for (size_t us = 0; us < lock.by_us.size(); ++us)
      if (lock.by_us[us]) max_us = us;
    size_t records = o.records().read([](const RecordStore& s) { return s.size(); });
    std::printf(
        "%9zu %9zu %8zu %8.3f %8.3f %8.3f %9.0f %11.0f %10.0f %8.0f %7.0fus %7.0fus %7.0fus "
        "%8llu\n",
        size, records, requests, percentile(m.ms, 0.5), percentile(m.ms, 0.9),
        percentile(m.ms, 0.99), requests / m.seconds, per_seed, heap_per_seed, rss_mb,
        lock.percentile_us(0.5), lock.percentile_us(0.99), static_cast<double>(max_us),
        static_cast<unsigned long long>(lock.retried - before_lock.retried));
    if (breakdown) print_breakdown(o, size, parts, heap_per_seed);
  }
  return 0;
}
