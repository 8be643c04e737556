#include "versioned_cache.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "domain/payments/collections.h"
#include "domain/payments/payment_intents.h"
#include "testing/domain_org.h"
#include "testing/intent_body.h"
#include "testing/psp_outcomes.h"
#include "util/json_text.h"

namespace fake_org {
namespace {

std::shared_ptr<const std::string> shared_text(const char* s) {
  return std::make_shared<const std::string>(s);
}

// A new one-time intent's id.
std::string new_intent(PaymentIntents& intents, IntentResult* result = nullptr) {
  auto created =
      intents.create(testing::IntentBody::one_time().body(), IntentContext{"http://h:1"});
  REQUIRE(created.ok());
  if (result) *result = *created;
  return created->payment_intent_id;
}

}  // namespace

TEST_CASE("a versioned cache answers only the key and version it kept", "[cache]") {
  VersionedCache cache;
  CHECK_FALSE(cache.find("pi_a", 1));
  cache.put("pi_a", 1, shared_text("one"));
  REQUIRE(cache.find("pi_a", 1));
  CHECK(*cache.find("pi_a", 1) == "one");
  CHECK_FALSE(cache.find("pi_a", 2));  // a commit since: built again
  CHECK_FALSE(cache.find("pi_b", 1));

  cache.put("pi_a", 3, shared_text("three"));
  cache.put("pi_a", 2, shared_text("two"));  // older than what the slot holds: kept out
  CHECK(*cache.find("pi_a", 3) == "three");
  CHECK_FALSE(cache.find("pi_a", 2));
}

TEST_CASE("an intent read between commits is the text built first, and a commit renews it",
          "[cache][intent]") {
  testing::DomainOrg t;
  PaymentIntents intents(*t.org);
  IntentResult created;
  const std::string pi = new_intent(intents, &created);

  auto first = intents.get_text(pi);
  REQUIRE(first.ok());
  CHECK(**first == text::json_text(*intents.get(pi)));
  auto again = intents.get_text(pi);
  REQUIRE(again.ok());
  CHECK(again->get() == first->get());  // the same text, not rebuilt

  // The payer pays on the hosted page: the installment and its payment change.
  const PspOutcome paid = testing::visa_paid();
  REQUIRE(complete_payment(*t.org, created.records.installment_id, paid).ok());
  auto after = intents.get_text(pi);
  REQUIRE(after.ok());
  CHECK(**after != **first);
  CHECK(**after == text::json_text(*intents.get(pi)));

  CHECK_FALSE(intents.get_text("pi_unknown").ok());
  CHECK_FALSE(intents.get_text("nope").ok());
}

TEST_CASE("intents read while others are created always read as built from one version",
          "[cache][intent][concurrency]") {
  testing::DomainOrg t;
  PaymentIntents intents(*t.org);
  const std::string pi = new_intent(intents);
  const std::string expected = text::json_text(*intents.get(pi));
  std::atomic<bool> done{false};
  std::atomic<int> wrong{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r)
    readers.emplace_back([&] {
      while (!done) {
        auto got = intents.get_text(pi);
        if (!got.ok() || **got != expected) ++wrong;
      }
    });
  for (int i = 0; i < 30; ++i) {
    auto body = testing::IntentBody::one_time()
                    .contact({{"LastName", "Reader" + std::to_string(i)},
                              {"Email", "r" + std::to_string(i) + "@example.org"}})
                    .body();
    REQUIRE(intents.create(body, IntentContext{"http://h:1"}).ok());
  }
  done = true;
  for (auto& r : readers) r.join();
  CHECK(wrong == 0);  // other intents' commits change versions, not this answer
}

}  // namespace fake_org
