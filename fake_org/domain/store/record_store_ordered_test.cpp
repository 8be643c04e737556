// Ordered partial indexes: what a scheduler reads to find what is due.
#include <catch2/catch.hpp>

#include "record_store.h"

using namespace fake_org;

namespace {
Record due(std::string id, std::string date, std::string status) {
  Record r;
  r.object = "Inst";
  r.id = std::move(id);
  r.fields = {{"Due", date}, {"Status", status}};
  return r;
}

std::vector<IndexSpec> specs() {
  IndexSpec open{"open.due", "Inst", {"Due"}, false};
  open.ordered = true;
  open.when = [](const Record& r) { return r.text("Status") == "Open"; };
  return {open};
}

Status put(RecordStore& s, Record r) {
  return s.write<Ok>([&](Transaction& tx) -> Status {
    tx.put(std::move(r));
    return ok_status();
  });
}

const std::string kA = "a0F000000000001AAA", kB = "a0F000000000002AAA", kC = "a0F000000000003AAA";
}  // namespace

TEST_CASE("up_to lists due records in date order, inclusive", "[store]") {
  RecordStore s(specs());
  REQUIRE(put(s, due(kA, "2027-03-31", "Open")).ok());
  REQUIRE(put(s, due(kB, "2027-02-28", "Open")).ok());
  REQUIRE(put(s, due(kC, "2027-04-30", "Open")).ok());
  CHECK(s.up_to("open.due", "2027-01-31").empty());
  CHECK(s.up_to("open.due", "2027-02-28") == std::vector<std::string>{kB});
  CHECK(s.up_to("open.due", "2027-04-29") == std::vector<std::string>{kB, kA});
  CHECK(s.up_to("open.due", "2099-01-01", 2) == std::vector<std::string>{kB, kA});
  CHECK(s.find("open.due", {"2027-04-30"}) == std::vector<std::string>{kC});
}

TEST_CASE("a record the predicate refuses leaves the index, a change of key moves it", "[store]") {
  RecordStore s(specs());
  REQUIRE(put(s, due(kA, "2027-02-28", "Open")).ok());
  REQUIRE(put(s, due(kB, "2027-03-31", "Open")).ok());
  REQUIRE(put(s, due(kA, "2027-02-28", "Collected")).ok());
  CHECK(s.up_to("open.due", "2099-01-01") == std::vector<std::string>{kB});
  REQUIRE(put(s, due(kB, "2027-01-15", "Open")).ok());
  CHECK(s.up_to("open.due", "2027-01-31") == std::vector<std::string>{kB});
  CHECK(s.up_to("open.due", "2027-01-14").empty());
}

TEST_CASE("a failed transaction and a failed replace_all leave the ordered index alone",
          "[store]") {
  RecordStore s(specs());
  REQUIRE(put(s, due(kA, "2027-02-28", "Open")).ok());
  auto failed = s.write<Ok>([&](Transaction& tx) -> Status {
    tx.put(due(kB, "2027-01-01", "Open"));
    return make_error(error_code::kInvalidData, "x", "no");
  });
  CHECK_FALSE(failed.ok());
  CHECK(s.up_to("open.due", "2099-01-01") == std::vector<std::string>{kA});
  auto replaced = s.replace_all([&](Transaction& tx) -> Status {
    tx.put(due(kC, "2027-01-01", "Open"));
    return make_error(error_code::kInvalidData, "x", "no");
  });
  CHECK_FALSE(replaced.ok());
  CHECK(s.up_to("open.due", "2099-01-01") == std::vector<std::string>{kA});
  REQUIRE(s.replace_all([&](Transaction& tx) -> Status {
             tx.put(due(kC, "2027-01-01", "Open"));
             return ok_status();
           }).ok());
  CHECK(s.up_to("open.due", "2099-01-01") == std::vector<std::string>{kC});
}
