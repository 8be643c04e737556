// The org under load while the admin moves its clock and resets it: the
// paths ThreadSanitizer (ci/tsan) watches beside the dedicated concurrency
// tests. Catch's assertions are not thread-safe, so the threads only count.
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

TEST_CASE("payment intents, clock advances and resets at the same time leave a sound org",
          "[http][concurrency]") {
  TestOrg t(fixture("default.yaml"));
  const std::string token = t.token();
  const size_t contacts = t.count("Contact");
  const size_t installments = t.count("cpm__Installment__c");
  std::atomic<int> answered{0};
  std::atomic<int> server_errors{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> clients;
  for (int i = 0; i < 4; ++i)
    clients.emplace_back([&, i] {
      httplib::Client c("127.0.0.1", t.embedded().port());
      int n = 0;
      while (!stop) {
        json body =
            IntentBody::one_time()
                .contact({{"LastName", "Load" + std::to_string(i) + "x" + std::to_string(n++)},
                          {"Email", "load@example.org"}})
                .body();
        auto r = c.Post("/services/apexrest/cpm/v2/PaymentIntent",
                        {{"Authorization", "Bearer " + token}}, body.dump(), "application/json");
        if (!r) continue;
        ++answered;
        if (r->status >= 500) ++server_errors;
      }
    });
  for (int round = 0; round < 6; ++round) {
    t.advance_clock("1d");
    t.advance_clock("31d");  // the collections run while payments arrive
    auto reset = t.post("/__admin/reset", json::object(), false);
    CHECK(reset.status == 200);
  }
  stop = true;
  for (auto& c : clients) c.join();
  CHECK(answered > 0);
  CHECK(server_errors == 0);
  // After a last reset nothing of the load is left.
  CHECK(t.post("/__admin/reset", json::object(), false).status == 200);
  CHECK(t.count("Contact") == contacts);
  CHECK(t.count("cpm__Installment__c") == installments);
}
