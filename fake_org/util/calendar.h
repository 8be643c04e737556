#pragma once
// Instants, durations and calendar dates as the org and its scenarios write
// them: ISO 8601 text, "90m"-style durations, UTC days. Pure functions of
// their arguments (the org's clock itself is domain/clock.h).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fake_org {

using TimePoint = std::chrono::time_point<std::chrono::system_clock, std::chrono::milliseconds>;
using Millis = std::chrono::milliseconds;

// "2027-01-31T09:00:00Z" (fractions and +hh:mm offsets accepted).
std::optional<TimePoint> parse_iso8601(std::string_view s);
// Always UTC with milliseconds: "2027-01-31T09:00:00.000Z".
std::string format_iso8601(TimePoint t);
// "90m", "2h", "30s", "7d", "1w", "1500ms"; also plain seconds "3600".
std::optional<Millis> parse_duration(std::string_view s);
// The largest unit that divides it, in words: "24 hours", "1 day", "90 minutes".
std::string describe_duration(Millis d);
// An advance of the org clock (admin API, the runner's clock step): a whole
// number with a unit (ms, s, m, h, d, w); unlike parse_duration, no bare
// seconds ("90" reads as 90 minutes to some).
std::optional<Millis> parse_clock_advance(std::string_view s);

// Calendar dates (no time zone: the org's dates are UTC days).
struct Date {
  int year = 1970;
  int month = 1;  // 1..12
  int day = 1;    // 1..31
  friend bool operator==(const Date& a, const Date& b) {
    return a.year == b.year && a.month == b.month && a.day == b.day;
  }
  friend bool operator<(const Date& a, const Date& b) {
    if (a.year != b.year) return a.year < b.year;
    if (a.month != b.month) return a.month < b.month;
    return a.day < b.day;
  }
  friend bool operator!=(const Date& a, const Date& b) { return !(a == b); }
  friend bool operator<=(const Date& a, const Date& b) { return !(b < a); }
};
bool is_leap_year(int year);
int days_in_month(int year, int month);
// Strict "YYYY-MM-DD" that names a real calendar day.
std::optional<Date> parse_date(std::string_view s);
std::string format_date(const Date& d);  // YYYY-MM-DD
Date date_of(TimePoint t);               // UTC day of an instant
int64_t days_from_civil(const Date& d);  // days since 1970-01-01
Date civil_from_days(int64_t days);
Date add_days(const Date& d, int days);
// Adds months keeping the anchor day where the month has it, else the month's last day.
Date add_months(const Date& anchor, int months);

}  // namespace fake_org
