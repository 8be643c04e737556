// A hosted setup session (no installment) completed by several payers'
// requests at once: the session's state is checked and changed inside the
// store's transaction, so exactly one completes it and the others conflict.
#include <catch2/catch.hpp>

#include <atomic>
#include <future>
#include <vector>

#include "domain/org/psp_sessions.h"
#include "domain/payments/collections.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;

TEST_CASE("concurrent completions of one setup session: exactly one succeeds", "[psp][recurring]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post("/PaymentIntent", IntentBody::recurring(card()).initial_payment(10));
  const std::string rec = t.recurring_id(r);
  // No shipped fixture opens a setup session, so one is opened by hand for
  // the recurring record (what a hosted processor without an initial payment does).
  for (int round = 0; round < 20; ++round) {
    PspSession setup;
    setup.id = "cs_setup_" + std::to_string(round);
    setup.recurring_id = rec;
    setup.payment_intent_id = r.json["Id"];
    setup.created = t.org().clock().now();
    t.org().psp_sessions().put(setup);

    std::atomic<int> ready{0};
    std::vector<std::future<bool>> tries;
    for (int i = 0; i < 4; ++i)
      tries.push_back(std::async(std::launch::async, [&] {
        ++ready;
        while (ready.load() < 4) std::this_thread::yield();  // start together
        PspOutcome o;
        o.card_brand = "Visa";
        o.last_four = "4242";
        return complete_payment(t.org(), setup.id, o).ok();
      }));
    int succeeded = 0;
    for (auto& f : tries) succeeded += f.get() ? 1 : 0;
    REQUIRE(succeeded == 1);
    CHECK(t.org().psp_sessions().get(setup.id)->attempts == 1);
  }
}
