// Org-level lookups shared by the views.
#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "domain/core/fields.h"
#include "domain/payments/collection_run.h"
#include "domain/payments/collections.h"
#include "domain/payments/payment_intents.h"
#include "domain/store/record_store.h"
#include "fixture/fixture_loader.h"
#include "testing/domain_org.h"
#include "testing/intent_body.h"
#include "testing/psp_outcomes.h"

namespace fake_org {
namespace {

using nlohmann::json;
using testing::card;
using testing::DomainOrg;
using testing::IntentBody;
using testing::kJane;

// Keeps every published event. Once armed, the next publish starts `racer`
// on another thread and gives it a chance to publish first (up to a bound,
// not a timing assertion): with publishing under the store's lock the racer
// cannot, so the order recorded is the commit order either way.
class RacingSink final : public EventSink {
 public:
  void arm(std::function<void()> racer) { racer_ = std::move(racer); }
  void publish(std::vector<DomainEvent> events) override {
    std::unique_lock lk(mu_);
    if (racer_ && !racing_.joinable()) {
      racing_ = std::thread(std::exchange(racer_, nullptr));
      const size_t before = events_.size();
      cv_.wait_for(lk, std::chrono::milliseconds(500), [&] { return events_.size() > before; });
    }
    for (auto& e : events) events_.push_back(std::move(e));
    cv_.notify_all();
  }
  void join() {
    if (racing_.joinable()) racing_.join();
  }
  std::vector<std::string> types(const std::string& pi) {
    std::lock_guard lk(mu_);
    std::vector<std::string> out;
    for (const auto& e : events_)
      if (e.payment_intent_id == pi) out.push_back(e.type);
    return out;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<DomainEvent> events_;
  std::function<void()> racer_;
  std::thread racing_;
};

// A monthly card series from 2027-03-01 with a first payment of 5: the payer
// pays on the PSP's hosted page, so the series waits for them.
IntentBody hosted_card_series(const std::string& last_name, const std::string& webhook_url = "") {
  IntentBody body = IntentBody::recurring(card())
                        .contact({{"LastName", last_name}})
                        .initial_payment(5)
                        .series(20, "Monthly", "2027-03-01");
  if (!webhook_url.empty()) body.webhook(webhook_url);
  return body;
}

// Records, for each publish and flush, whether the store's write lock was
// held, asked from another thread (the caller may hold it exclusively).
class LockProbeSink final : public EventSink {
 public:
  explicit LockProbeSink(const RecordStore& store) : store_(store) {}
  void publish(std::vector<DomainEvent> events) override {
    if (!events.empty()) calls_.push_back(probe() ? "publish:locked" : "publish:unlocked");
  }
  void flush() override {
    // Only the flushes that follow a publish matter (each request flushes).
    if (!calls_.empty() && calls_.back().rfind("publish", 0) == 0)
      calls_.push_back(probe() ? "flush:locked" : "flush:unlocked");
  }
  std::vector<std::string> calls_;

 private:
  bool probe() const {
    bool locked = false;
    std::thread t([&] { locked = store_.is_write_locked(); });
    t.join();
    return locked;
  }
  const RecordStore& store_;
};

TEST_CASE("events are published under the store's lock and flushed after it is released",
          "[org][events]") {
  DomainOrg t;
  auto sink = std::make_shared<LockProbeSink>(t.org->records());
  t.org->set_event_sink(sink);
  PaymentIntents intents(*t.org);
  json body = hosted_card_series("Turing", "https://hooks.example/cpm");
  auto created = intents.create(body, IntentContext{"http://127.0.0.1:1"});
  REQUIRE(created.ok());
  const PspOutcome paid = testing::visa_paid();
  REQUIRE(complete_payment(*t.org, created->records.installment_id, paid).ok());
  REQUIRE(run_due_collections(*t.org).installments_created == 1);
  // The create, the payment and the run each publish, then flush unlocked.
  const std::vector<std::string> one = {"publish:locked", "flush:unlocked"};
  CHECK(sink->calls_ == std::vector<std::string>{one[0], one[1], one[0], one[1], one[0], one[1]});
}

TEST_CASE("seed records keep the fixture's record type, else get the object's default",
          "[org][seed]") {
  DomainOrg t;
  auto trust = t.org->find_record("0017Q00000GrnTrQAJ", "account");
  REQUIRE(trust.ok());
  CHECK((*trust)->text(fields::kRecordTypeName) == "Business_Account");
  auto jane = t.org->find_record("0037Q00000JaneDQAR", "contact");
  REQUIRE(jane.ok());
  const ObjectDef* contact = t.org->config().object("Contact");
  REQUIRE(contact);
  if (const RecordTypeDef* rt = contact->default_record_type())
    CHECK((*jane)->text(fields::kRecordTypeName) == rt->name);
  else
    CHECK_FALSE((*jane)->has(fields::kRecordTypeName));
}

TEST_CASE("find_record over a reader resolves ids and GUIDs in that reader's state",
          "[org][find_record]") {
  DomainOrg t;
  // Inside one write(): a record staged by this transaction is found by id
  // (15 or 18 characters) and GUID, as a view built in the same lock needs.
  auto staged = t.org->records().write<bool>([&](Transaction& tx) -> Result<bool> {
    Record r;
    r.object = objects::kInstallment;
    r.id = t.org->ids().record_id("a0F");
    r.guid = t.org->ids().guid();
    tx.put(r);
    auto by_id = Org::find_record(tx, r.id, "installment");
    REQUIRE(by_id.ok());
    CHECK((*by_id)->id == r.id);
    auto by_15 = Org::find_record(tx, r.id.substr(0, 15), "installment");
    REQUIRE(by_15.ok());
    CHECK((*by_15)->id == r.id);
    auto by_guid = Org::find_record(tx, r.guid, "installment");
    REQUIRE(by_guid.ok());
    CHECK((*by_guid)->id == r.id);
    // The committed store does not have it yet.
    CHECK(Org::find_record(t.org->records(), r.id, "installment").errors()[0].kind ==
          ErrorKind::kNotFound);
    return false;
  });
  REQUIRE(staged.ok());

  auto seeded = t.org->records().read(
      [&](const RecordStore& s) { return Org::find_record(s, kJane, "contact"); });
  REQUIRE(seeded.ok());
  CHECK((*seeded)->object == objects::kContact);
  auto malformed = t.org->records().read(
      [&](const RecordStore& s) { return Org::find_record(s, "not-an-id", "installment"); });
  REQUIRE_FALSE(malformed.ok());
  // A malformed id is invalid data (200, HTTP 422), in a path as in a body.
  CHECK(malformed.errors()[0].code == error_code::kInvalidData);
  CHECK(malformed.errors()[0].kind == ErrorKind::kSpec);
  // The locking form answers the same.
  CHECK(t.org->find_record(kJane, "contact").ok());
  CHECK(t.org->find_record("not-an-id", "x").errors()[0].code == error_code::kInvalidData);
}

TEST_CASE("a collection run committing right after a payment publishes after it", "[org][events]") {
  DomainOrg t;
  auto sink = std::make_shared<RacingSink>();
  t.org->set_event_sink(sink);
  PaymentIntents intents(*t.org);
  // A hosted card series due today: the run collects it once the payer paid.
  json body = hosted_card_series("Turing", "https://hooks.example/cpm");
  auto created = intents.create(body, IntentContext{"http://127.0.0.1:1"});
  REQUIRE(created.ok());
  const std::string pi = created->payment_intent_id;
  const std::string initial = created->records.installment_id;
  REQUIRE_FALSE(initial.empty());

  // The payer's status_change is being published when the run starts.
  sink->arm([&] { run_due_collections(*t.org); });
  const PspOutcome paid = testing::visa_paid();
  REQUIRE(complete_payment(*t.org, initial, paid).ok());
  sink->join();
  CHECK(sink->types(pi) ==
        std::vector<std::string>{"paymentIntent.created", "installment.created",
                                 "paymentIntent.processed", "installment.status_change",
                                 "installment.created", "installment.status_change"});
}

TEST_CASE("a donation waiting for its hosted page stays out of the collection index until paid",
          "[org][collections]") {
  auto load = load_embedded_fixture("nonprofit.yaml");
  INFO(load.error_text());
  REQUIRE(load.ok());
  DomainOrg t(*load.config);
  const std::string index =
      std::string(index_name::kRecurringByNextDuePrefix) + "npe03__Recurring_Donation__c";
  auto due = [&] {
    return t.org->records().read(
        [&](const RecordStore& s) { return s.up_to(index, "9999-12-31"); });
  };
  PaymentIntents intents(*t.org);
  json body = hosted_card_series("Rivera");
  auto created = intents.create(body, IntentContext{"http://127.0.0.1:1"});
  INFO((created.ok() ? "" : created.errors()[0].message));
  REQUIRE(created.ok());
  const std::string donation = created->records.recurring_id;
  REQUIRE_FALSE(donation.empty());
  // Active from the start, but its mandate waits for the payer: a run could
  // not collect it, so it must not read it (an abandoned setup, for ever).
  CHECK(t.get(donation)->text("npsp__Status__c") == "Active");
  CHECK(due().empty());
  CHECK(run_due_collections(*t.org).installments_created == 0);

  const PspOutcome paid = testing::visa_paid();
  REQUIRE(complete_payment(*t.org, created->records.installment_id, paid).ok());
  CHECK(due() == std::vector<std::string>{donation});
  CHECK(run_due_collections(*t.org).installments_created == 1);
  CHECK(t.get(donation)->text("npe03__Next_Payment_Date__c") == "2027-04-01");
}

TEST_CASE("an intent without a WebhookURL publishes its events without building their data",
          "[org][events]") {
  DomainOrg t;
  auto sink = std::make_shared<RecordingEventSink>();
  t.org->set_event_sink(sink);
  PaymentIntents intents(*t.org);
  REQUIRE(intents.create(hosted_card_series("Quiet"), IntentContext{"http://127.0.0.1:1"}).ok());
  REQUIRE(intents
              .create(hosted_card_series("Loud", "https://hooks.example/cpm"),
                      IntentContext{"http://127.0.0.1:1"})
              .ok());
  size_t quiet = 0, loud = 0;
  for (const DomainEvent& e : sink->events()) {
    if (e.webhook_url.empty()) {
      ++quiet;
      CHECK(e.data.is_null());
    } else {
      ++loud;
      CHECK(e.data.is_object());
      CHECK_FALSE(e.data.value("Id", std::string()).empty());
    }
  }
  CHECK(quiet == 3);  // created, installment.created, processed
  CHECK(quiet == loud);
}

}  // namespace
}  // namespace fake_org
