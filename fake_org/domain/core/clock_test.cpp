#include "clock.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>

using namespace fake_org;

TEST_CASE("ISO 8601 instants parse and format in UTC", "[clock]") {
  auto t = parse_iso8601("2027-01-31T09:00:00Z");
  REQUIRE(t);
  CHECK(format_iso8601(*t) == "2027-01-31T09:00:00.000Z");
  CHECK(format_iso8601(*parse_iso8601("2027-01-31T10:30:00.250+01:30")) ==
        "2027-01-31T09:00:00.250Z");
  CHECK(format_iso8601(*parse_iso8601("1970-01-01T00:00:00Z")) == "1970-01-01T00:00:00.000Z");
  CHECK_FALSE(parse_iso8601("2027-01-31T09:00:00"));   // no zone: refused, never local time
  CHECK_FALSE(parse_iso8601("2027-02-30T09:00:00Z"));  // no such day
  CHECK_FALSE(parse_iso8601("2027-01-31T24:00:00Z"));
  CHECK_FALSE(parse_iso8601("yesterday"));
}

TEST_CASE("durations take the admin clock's units", "[clock]") {
  CHECK(parse_duration("90m")->count() == 90 * 60'000);
  CHECK(parse_duration("2h")->count() == 7'200'000);
  CHECK(parse_duration("30s")->count() == 30'000);
  CHECK(parse_duration("7d")->count() == 7 * 86'400'000LL);
  CHECK(parse_duration("1500ms")->count() == 1500);
  CHECK(parse_duration("2w")->count() == 14 * 86'400'000LL);
  CHECK(parse_duration("3600")->count() == 3'600'000);
  CHECK_FALSE(parse_duration("m"));
  CHECK_FALSE(parse_duration("5 minutes"));
  CHECK_FALSE(parse_duration("-5m"));
  CHECK_FALSE(parse_duration(""));
}

TEST_CASE("calendar dates are strict and real", "[clock]") {
  CHECK(parse_date("2024-02-29"));
  CHECK_FALSE(parse_date("2023-02-29"));
  CHECK_FALSE(parse_date("2100-02-29"));
  CHECK(parse_date("2000-02-29"));
  CHECK_FALSE(parse_date("2024-13-01"));
  CHECK_FALSE(parse_date("2024-1-01"));
  CHECK_FALSE(parse_date("31-01-2024"));
  CHECK(format_date(*parse_date("2024-03-09")) == "2024-03-09");
}

TEST_CASE("adding months keeps the anchor day or clamps to month end", "[clock]") {
  Date jan31{2027, 1, 31};
  CHECK(add_months(jan31, 1) == Date{2027, 2, 28});
  CHECK(add_months(jan31, 2) == Date{2027, 3, 31});
  CHECK(add_months(jan31, 3) == Date{2027, 4, 30});
  CHECK(add_months(Date{2028, 1, 31}, 1) == Date{2028, 2, 29});
  CHECK(add_months(jan31, 11) == Date{2027, 12, 31});
  CHECK(add_months(jan31, 12) == Date{2028, 1, 31});
  CHECK(add_days(Date{2027, 12, 31}, 1) == Date{2028, 1, 1});
  CHECK(civil_from_days(days_from_civil(Date{2024, 2, 29})) == Date{2024, 2, 29});
  CHECK(days_from_civil(Date{1970, 1, 1}) == 0);
}

TEST_CASE("the adjustable clock moves org time without sleeping", "[clock]") {
  auto base = std::make_shared<ManualClock>(*parse_iso8601("2027-01-01T00:00:00Z"));
  AdjustableClock clock(base);
  CHECK(format_iso8601(clock.now()) == "2027-01-01T00:00:00.000Z");
  clock.advance(*parse_duration("90m"));
  CHECK(format_iso8601(clock.now()) == "2027-01-01T01:30:00.000Z");
  clock.set(*parse_iso8601("2027-01-31T09:00:00Z"));
  CHECK(format_iso8601(clock.now()) == "2027-01-31T09:00:00.000Z");
  base->advance(Millis(1000));  // real time keeps flowing under the offset
  CHECK(format_iso8601(clock.now()) == "2027-01-31T09:00:01.000Z");
  clock.reset();
  CHECK(format_iso8601(clock.now()) == "2027-01-01T00:00:01.000Z");
  CHECK(date_of(clock.now()) == Date{2027, 1, 1});
}

TEST_CASE("clock moves: an advance needs a unit, no later than 9999, at most 100 years a move",
          "[clock]") {
  CHECK(parse_clock_advance("90m")->count() == 90 * 60'000);
  CHECK(parse_clock_advance("1w")->count() == 7 * 86'400'000LL);
  CHECK_FALSE(parse_clock_advance("90"));
  CHECK_FALSE(parse_clock_advance("-1d"));
  CHECK_FALSE(parse_clock_advance(""));
  // 2^40 weeks overflows int64 milliseconds: refused, not wrapped.
  CHECK_FALSE(parse_duration("1099511627776w"));
  CHECK(format_iso8601(latest_org_time()) == "9999-12-31T23:59:59.000Z");
  const TimePoint now = *parse_iso8601("2027-01-31T09:00:00Z");
  CHECK(advance_error(kMaxClockMove).empty());
  CHECK(advance_error(kMaxClockMove + Millis(1)).find("100 years") != std::string::npos);
  CHECK(clock_move_error(now, now + kMaxClockMove * 10).empty());  // a set: the year 9999 only
  CHECK(clock_move_error(now, *parse_iso8601("1970-01-01T00:00:00Z")).empty());  // back: allowed
  const TimePoint late = *parse_iso8601("9999-12-01T00:00:00Z");
  CHECK(clock_move_error(late, latest_org_time()).empty());
  CHECK(clock_move_error(late, latest_org_time() + Millis(1)).find("9999-12-31T23:59:59Z") !=
        std::string::npos);
}

TEST_CASE("durations are described in their largest whole unit", "[clock]") {
  CHECK(describe_duration(Millis(86'400'000)) == "24 hours");
  CHECK(describe_duration(Millis(2 * 86'400'000)) == "2 days");
  CHECK(describe_duration(Millis(7 * 86'400'000)) == "1 week");
  CHECK(describe_duration(Millis(5'400'000)) == "90 minutes");
  CHECK(describe_duration(Millis(3'600'000)) == "1 hour");
  CHECK(describe_duration(Millis(1500)) == "1500 milliseconds");
  CHECK(describe_duration(Millis(0)) == "0 milliseconds");
}

TEST_CASE("instants and dates format as printf's %04d-%02d-%02d would, in any year", "[clock]") {
  // The formatting is by hand for years 0-9999; a reference from snprintf
  // checks it, and the years around and outside that range.
  for (int64_t ms = -800'000LL * 86'400'000; ms < 3'000'000LL * 86'400'000; ms += 7'777'777'777LL) {
    const int64_t days = ms >= 0 ? ms / 86400000 : -((-ms + 86399999) / 86400000);
    const int64_t rem = ms - days * 86400000;
    const Date d = civil_from_days(days);
    char want[64];
    std::snprintf(want, sizeof want, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", d.year, d.month, d.day,
                  static_cast<int>(rem / 3600000), static_cast<int>(rem / 60000 % 60),
                  static_cast<int>(rem / 1000 % 60), static_cast<int>(rem % 1000));
    INFO(ms);
    CHECK(format_iso8601(TimePoint(Millis(ms))) == want);
    want[std::strlen(want) - 14] = '\0';  // the date alone
    CHECK(format_date(d) == want);
  }
  CHECK(format_date(Date{999, 1, 2}) == "0999-01-02");
  CHECK(format_date(Date{10000, 12, 31}) == "10000-12-31");
  CHECK(format_date(Date{-1, 3, 4}) == "-001-03-04");
  CHECK(format_iso8601(TimePoint(Millis(86'399'999))) == "1970-01-01T23:59:59.999Z");
}
