#include "idempotency.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <stdexcept>

using namespace fake_org;

namespace {

TimePoint at(int64_t ms) {
  return TimePoint(Millis(ms));
}

}  // namespace

TEST_CASE("idempotency: replay within the window, conflict on another body, run again after",
          "[idempotency]") {
  IdempotencyStore store;
  REQUIRE(store.claim("k", "body", at(0)).verdict == IdempotencyStore::Verdict::kExecute);
  store.complete("k", {{"Id", "pi_1"}}, at(1000));
  auto replay = store.claim("k", "body", at(999));
  CHECK(replay.verdict == IdempotencyStore::Verdict::kReplay);
  CHECK(replay.response["Id"] == "pi_1");
  CHECK(store.claim("k", "other", at(999)).verdict == IdempotencyStore::Verdict::kConflict);
  CHECK(store.claim("k", "body", at(1000)).verdict == IdempotencyStore::Verdict::kExecute);
}

TEST_CASE("idempotency: expired entries are dropped by the next claim, not kept until a sweep",
          "[idempotency]") {
  IdempotencyStore store;
  for (int i = 0; i < 10; ++i) {
    const std::string key = "k" + std::to_string(i);
    REQUIRE(store.claim(key, "body", at(i)).verdict == IdempotencyStore::Verdict::kExecute);
    store.complete(key, {{"Id", key}}, at(100 + i));
  }
  CHECK(store.size() == 10);
  REQUIRE(store.claim("late", "body", at(105)).verdict == IdempotencyStore::Verdict::kExecute);
  CHECK(store.size() == 5);  // k6..k9 and the in-flight "late"
  store.complete("late", {}, at(200));
  REQUIRE(store.claim("later", "body", at(200)).verdict == IdempotencyStore::Verdict::kExecute);
  CHECK(store.size() == 1);  // only the in-flight "later"
}

TEST_CASE("idempotency: a pending claim dropped by an exception frees its key for waiters",
          "[idempotency]") {
  IdempotencyStore store;
  REQUIRE(store.claim("k", "body", at(0)).verdict == IdempotencyStore::Verdict::kExecute);
  std::promise<void> go;
  auto failing = std::async(std::launch::async, [&] {
    go.get_future().wait();
    try {
      IdempotencyStore::Pending pending(store, "k");
      throw std::runtime_error("the request failed");
    } catch (const std::runtime_error&) {
    }
  });
  // This claim waits for the first one; it runs once the exception abandoned it.
  auto waiter = std::async(std::launch::async, [&] { return store.claim("k", "body", at(1)); });
  go.set_value();
  failing.get();
  CHECK(waiter.get().verdict == IdempotencyStore::Verdict::kExecute);
}

TEST_CASE("idempotency: a completed pending claim is replayed, not abandoned", "[idempotency]") {
  IdempotencyStore store;
  REQUIRE(store.claim("k", "body", at(0)).verdict == IdempotencyStore::Verdict::kExecute);
  {
    IdempotencyStore::Pending pending(store, "k");
    pending.complete({{"Id", "pi_1"}}, at(1000));
  }
  CHECK(store.claim("k", "body", at(1)).verdict == IdempotencyStore::Verdict::kReplay);
}

TEST_CASE("idempotency: the body digest is 32 bytes whatever the body, canonical in key order",
          "[idempotency][digest]") {
  nlohmann::json big = {{"Payer", {{"Name", std::string(100000, 'x')}}}, {"Amount", 10}};
  CHECK(body_digest(big).size() == 32);
  nlohmann::json reordered = nlohmann::json::parse(R"({"Amount": 10, "Payer": {"Name": ")" +
                                                   std::string(100000, 'x') + R"("}})");
  CHECK(body_digest(reordered) == body_digest(big));
  big["Amount"] = 11;
  CHECK(body_digest(reordered) != body_digest(big));
}
