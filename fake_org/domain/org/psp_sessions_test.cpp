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

TEST_CASE("a PSP session expires on the org clock and is then forgotten", "[psp]") {
  auto clock = std::make_shared<ManualClock>(TimePoint(Millis(0)));
  PspSessionStore store(clock, Millis(1000));
  store.put(session("s1", "a0B000000000001AAA", 0));
  store.put(session("s2", "a0B000000000002AAA", 500));
  clock->set(TimePoint(Millis(999)));
  CHECK(store.get("s1"));
  CHECK(store.update("s1", [](PspSession& s) { s.created = TimePoint(Millis(900)); }));
  CHECK(store.get("s1")->created == TimePoint(Millis(0)));  // updates cannot extend a session

  clock->set(TimePoint(Millis(1000)));
  CHECK_FALSE(store.get("s1"));
  CHECK_FALSE(store.find_by_installment("a0B000000000001AAA"));
  CHECK_FALSE(store.update("s1", [](PspSession&) {}));
  CHECK(store.get("s2"));
  CHECK(store.size() == 2);  // expired, not yet forgotten

  store.put(session("s3", "a0B000000000003AAA", 1000));
  CHECK(store.size() == 2);  // s1 forgotten by the put
  clock->set(TimePoint(Millis(1500)));
  store.put(session("s4", "", 1500));
  CHECK(store.size() == 2);  // s2 too
  CHECK(store.get("s3"));
  CHECK(store.get("s4"));
}

TEST_CASE("a PSP session created ahead of a clock moved back waits for its own time", "[psp]") {
  auto clock = std::make_shared<ManualClock>(TimePoint(Millis(10'000)));
  PspSessionStore store(clock, Millis(1000));
  store.put(session("late", "a0B000000000001AAA", 10'000));
  clock->set(TimePoint(Millis(0)));
  store.put(session("early", "a0B000000000001AAA", 0));
  CHECK(store.get("late"));
  CHECK(store.find_by_installment("a0B000000000001AAA")->id == "late");
  clock->set(TimePoint(Millis(10'500)));
  store.put(session("next", "", 10'500));
  CHECK_FALSE(store.get("early"));
  CHECK(store.get("late"));
  CHECK(store.size() == 2);
}

TEST_CASE("putting a session again replaces it in every index", "[psp]") {
  auto clock = std::make_shared<ManualClock>(TimePoint(Millis(0)));
  PspSessionStore store(clock, Millis(1000));
  store.put(session("s1", "a0B000000000001AAA", 0));
  store.put(session("s1", "a0B000000000001AAA", 800));
  clock->set(TimePoint(Millis(1200)));
  store.put(session("s2", "", 1200));
  CHECK(store.get("s1"));  // its second creation time counts
  CHECK(store.find_by_installment("a0B000000000001AAA")->id == "s1");
  CHECK(store.size() == 2);
}

TEST_CASE("packed texts give back each text, at every length boundary", "[psp]") {
  const std::string long_text(300, 'x'), edge(127, 'y'), over(128, 'z');
  PackedTexts packed{"cs_1", "", long_text, edge, over, std::string_view("a\0b", 3)};
  CHECK(packed.at(0) == "cs_1");
  CHECK(packed.at(1).empty());
  CHECK(packed.at(2) == long_text);
  CHECK(packed.at(3) == edge);
  CHECK(packed.at(4) == over);
  CHECK(packed.at(5) == std::string_view("a\0b", 3));
  CHECK(packed.at(6).empty());
  CHECK(PackedTexts().at(0).empty());
  // A count byte, then each length (two bytes from 128 on) and text.
  CHECK(packed.heap_bytes() == 1 + (1 + 4) + 1 + (2 + 300) + (1 + 127) + (2 + 128) + (1 + 3));
  CHECK(PackedTexts().heap_bytes() == 0);
  const PackedTexts empty{"", "", ""};  // nothing to keep: no block
  CHECK(empty.heap_bytes() == 0);
  CHECK(empty.at(1).empty());
}

TEST_CASE("a session's repeated texts are kept once, and any text comes back whole", "[psp]") {
  // Shared texts are numbered per process (FieldValues): 300 distinct
  // success URLs fill that table, so the later ones stay in their sessions'
  // blocks; a URL past 128 bytes is never shared. Every one reads back.
  PspSessionStore store;
  const std::string long_url = "https://shop.example/" + std::string(200, 'u');
  auto make = [&](int i) {
    PspSession s =
        session("cs_" + std::to_string(i), "a0F00000000000" + std::to_string(1000 + i), 1234);
    s.method = "CreditCard";
    s.processor = "Stripe";
    s.currency = "EUR";
    s.amount = i % 3;
    s.success_url = "https://shop.example/ok/" + std::to_string(i);
    s.failure_url = i % 2 ? long_url : "https://shop.example/ko";
    return s;
  };
  for (int i = 0; i < 300; ++i) store.put(make(i));
  for (int i = 0; i < 300; ++i) {
    auto got = store.get("cs_" + std::to_string(i));
    REQUIRE(got);
    INFO(i);
    CHECK(saved_psp_session(*got) == saved_psp_session(make(i)));
  }
  CHECK(store.update("cs_7", [](PspSession& x) { x.status = std::string(150, 's'); }));
  CHECK(store.get("cs_7")->status == std::string(150, 's'));
  CHECK(store.update("cs_7", [](PspSession& x) { x.status = "completed"; }));
  CHECK(store.get("cs_7")->status == "completed");
}

TEST_CASE("a PSP session keeps every field, and an update only the payer's outcome", "[psp]") {
  PspSessionStore store;
  PspSession s = session("cs_abc", "a0F000000000001AAA", 1234);
  s.payment_intent_id = "pi_123";
  s.recurring_id = "a0R000000000001AAA";
  s.method = "SEPA Direct Debit";
  s.processor = "Adyen";
  s.target = "Online";
  s.kind = MethodKind::kBank;
  s.currency = "EUR";
  s.amount = 12.5;
  s.success_url = "https://shop.example/ok?x=1";
  s.failure_url = "https://shop.example/ko";
  s.superseded_mandate_id = "a0M000000000001AAA";
  store.put(s);
  auto got = store.get("cs_abc");
  REQUIRE(got);
  CHECK(saved_psp_session(*got) == saved_psp_session(s));

  CHECK(store.update("cs_abc", [](PspSession& x) {
    x.status = "completed";
    x.last_outcome = "success";
    x.payment_id = "a0P000000000009AAA";
    x.attempts = 2;
    x.success_url = "https://elsewhere.example/";  // not the payer's to change
  }));
  got = store.get("cs_abc");
  REQUIRE(got);
  CHECK(got->status == "completed");
  CHECK(got->last_outcome == "success");
  CHECK(got->payment_id == "a0P000000000009AAA");
  CHECK(got->attempts == 2);
  CHECK(got->success_url == "https://shop.example/ok?x=1");
  CHECK(got->amount == 12.5);
  CHECK(got->kind == MethodKind::kBank);
}

TEST_CASE("sessions opened in freed slots live their own time", "[psp]") {
  auto clock = std::make_shared<ManualClock>(TimePoint(Millis(0)));
  PspSessionStore store(clock, Millis(1000));
  store.put(session("a", "a0B000000000001AAA", 0));
  store.put(session("b", "a0B000000000002AAA", 0));
  store.put(session("a", "a0B000000000001AAA", 0));  // replaced: its first entry goes stale
  clock->set(TimePoint(Millis(1000)));
  store.put(session("c", "a0B000000000003AAA", 1000));  // a and b forgotten, c in a freed slot
  CHECK(store.size() == 1);
  store.put(session("d", "a0B000000000001AAA", 1000));
  clock->set(TimePoint(Millis(1999)));
  store.put(session("e", "", 1999));
  CHECK(store.size() == 3);
  CHECK(store.get("c"));
  CHECK(store.find_by_installment("a0B000000000001AAA")->id == "d");
  CHECK_FALSE(store.get("a"));
  CHECK_FALSE(store.find_by_installment("a0B000000000002AAA"));
  clock->set(TimePoint(Millis(2000)));
  store.put(session("f", "", 2000));
  CHECK(store.size() == 2);  // c and d went at their own time
  CHECK(store.get("e"));
  CHECK(store.get("f"));
}
