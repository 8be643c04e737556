#include "psp_sessions.h"

#include <catch2/catch.hpp>

using namespace fake_org;

namespace {

PspSession session(const std::string& id, const std::string& installment, int64_t created_ms) {
  PspSession s;
  s.id = id;
  s.installment_id = installment;
  s.created = TimePoint(Millis(created_ms));
  return s;
}

}  // namespace

TEST_CASE("PSP sessions are found by installment, newest first, through the index", "[psp]") {
  PspSessionStore store;
  store.put(session("s1", "a0B000000000001AAA", 1000));
  store.put(session("s2", "a0B000000000001AAA", 3000));
  store.put(session("s0", "a0B000000000001AAA", 2000));  // put later, created earlier
  store.put(session("s3", "a0B000000000002AAA", 500));
  store.put(session("s4", "", 9000));  // no installment: never found by one

  CHECK(store.find_by_installment("a0B000000000001AAA")->id == "s2");
  CHECK(store.find_by_installment("a0B000000000002AAA")->id == "s3");
  CHECK_FALSE(store.find_by_installment(""));
  CHECK_FALSE(store.find_by_installment("a0B000000000009AAA"));
}

TEST_CASE("a PSP session update keeps its installment, so the index stays right", "[psp]") {
  PspSessionStore store;
  store.put(session("s1", "a0B000000000001AAA", 1000));
  CHECK(store.update("s1", [](PspSession& s) {
    s.status = "completed";
    s.installment_id = "changed";
  }));
  CHECK(store.get("s1")->installment_id == "a0B000000000001AAA");
  CHECK(store.find_by_installment("a0B000000000001AAA")->status == "completed");
  CHECK_FALSE(store.update("nope", [](PspSession&) {}));
}

TEST_CASE("a PSP session reset forgets the installment index too", "[psp]") {
  PspSessionStore store;
  store.put(session("s1", "a0B000000000001AAA", 1000));
  store.reset();
  CHECK_FALSE(store.find_by_installment("a0B000000000001AAA"));
  CHECK_FALSE(store.get("s1"));
}
