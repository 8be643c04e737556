#include "ids.h"

#include <catch2/catch.hpp>
#include <set>

using namespace fake_org;

TEST_CASE("18-character record ids carry the platform's case-safe suffix", "[ids]") {
  // Published examples of the platform's 15 -> 18 conversion.
  CHECK(record_id_suffix("001A0000006Vm9r") == "IAC");
  CHECK(*to_id18("001A0000006Vm9r") == "001A0000006Vm9rIAC");
  CHECK(*to_id18("003000000000000") == "003000000000000AAA");
  CHECK(*to_id18("001A0000006Vm9rIAC") == "001A0000006Vm9rIAC");
  CHECK(*to_id18("001A0000006Vm9riac") == "001A0000006Vm9rIAC");  // suffix is case-insensitive
  CHECK_FALSE(to_id18("001A0000006Vm9rAAA"));                     // wrong suffix
  CHECK_FALSE(to_id18("001A0000006Vm9"));                         // 14 characters
  CHECK_FALSE(to_id18("001A0000006Vm9r-IAC"));
  CHECK_FALSE(to_id18("001A000000-Vm9r"));
  CHECK(is_record_id("001A0000006Vm9r"));
  CHECK_FALSE(is_record_id("pi_abc"));
}

TEST_CASE("generated record ids have the object's prefix and are unique", "[ids]") {
  IdGenerator ids(std::make_shared<SeededRandom>(42));
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string id = ids.record_id("a0B");
    REQUIRE(id.size() == 18);
    CHECK(id.substr(0, 3) == "a0B");
    CHECK(*to_id18(id.substr(0, 15)) == id);
    seen.insert(id);
  }
  CHECK(seen.size() == 1000);
  ids.reset_sequence();
  CHECK(ids.record_id("003") == "0035J0000000001QAA");
}

TEST_CASE("GUIDs, payment intent ids and tokens", "[ids]") {
  IdGenerator ids(std::make_shared<OsRandom>());
  std::string g = ids.guid();
  CHECK(is_guid(g));
  CHECK(g[14] == '4');  // version 4
  CHECK(std::string("89ab").find(g[19]) != std::string::npos);
  CHECK_FALSE(is_guid("not-a-guid"));
  std::string pi = ids.payment_intent_id();
  CHECK(pi.rfind("pi_", 0) == 0);
  CHECK(pi.size() == 27);
  for (char c : pi.substr(3)) CHECK(((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')));
  CHECK(ids.payment_intent_id() != pi);
  CHECK(ids.token().size() == 32);
  CHECK(ids.token() != ids.token());
}

TEST_CASE("a GUID's lookup key is its lower-case form", "[ids][guid_case]") {
  CHECK(is_guid("6F1C2A3B-0000-4000-8000-00000000ABCD"));
  CHECK(guid_key("6F1C2A3B-0000-4000-8000-00000000ABCD") == "6f1c2a3b-0000-4000-8000-00000000abcd");
  CHECK(guid_key("6f1c2a3b-0000-4000-8000-00000000abcd") == "6f1c2a3b-0000-4000-8000-00000000abcd");
}
