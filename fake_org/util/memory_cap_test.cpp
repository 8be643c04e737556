#include "util/memory_cap.h"

#include <catch2/catch.hpp>

using namespace fake_org::util;

namespace {

// Every test leaves the process without a cap, as it found it.
struct NoCapAfter {
  ~NoCapAfter() { set_memory_cap(0); }
};

}  // namespace

TEST_CASE("resident memory is read from /proc", "[memory]") {
  const auto rss = resident_memory();
  REQUIRE(rss.has_value());
  CHECK(*rss > 1024 * 1024);  // a test binary holds at least a megabyte
}

TEST_CASE("a cap below the resident memory is over at once", "[memory]") {
  NoCapAfter restore;
  set_memory_cap(1);
  CHECK(over_memory_cap());
  CHECK(sampled_memory() > 1);
  CHECK(memory_cap() == 1);
}

TEST_CASE("a cap far above the resident memory is not over", "[memory]") {
  NoCapAfter restore;
  set_memory_cap(uint64_t{1} << 50);
  CHECK_FALSE(over_memory_cap());
  sample_memory(true);
  CHECK_FALSE(over_memory_cap());
}

TEST_CASE("no cap is never over, whatever was sampled before", "[memory]") {
  NoCapAfter restore;
  set_memory_cap(1);
  REQUIRE(over_memory_cap());
  set_memory_cap(0);
  CHECK_FALSE(over_memory_cap());
  sample_memory();
  CHECK_FALSE(over_memory_cap());
}

TEST_CASE("a raised cap is seen at the next forced sample, not later", "[memory]") {
  NoCapAfter restore;
  set_memory_cap(1);
  REQUIRE(over_memory_cap());
  set_memory_cap(uint64_t{1} << 50);  // setting a cap samples at once
  CHECK_FALSE(over_memory_cap());
}
