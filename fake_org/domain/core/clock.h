#pragma once
// The org's clock. Everything time-dependent (token expiry, idempotency window,
// collection dates, webhook backoff) reads it, so tests and the admin API can
// move time without sleeping.
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace fake_org {

using Clock_ = std::chrono::system_clock;
using TimePoint = std::chrono::time_point<std::chrono::system_clock, std::chrono::milliseconds>;
using Millis = std::chrono::milliseconds;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint now() const = 0;
};

// Wall-clock time.
class SystemClock final : public Clock {
 public:
  TimePoint now() const override;
};

// A base clock plus an adjustable offset; `set` and `advance` move org time.
// Thread-safe: the offset is one atomic.
class AdjustableClock final : public Clock {
 public:
  explicit AdjustableClock(std::shared_ptr<const Clock> base);
  TimePoint now() const override;
  void set(TimePoint t);
  void advance(Millis d);
  void reset();  // back to the base clock
  // How far org time is ahead of the base clock (negative: behind); a data
  // directory keeps it, so a restart resumes the org's time.
  Millis offset() const { return Millis(offset_ms_.load()); }
  void set_offset(Millis offset) { offset_ms_ = offset.count(); }

 private:
  std::shared_ptr<const Clock> base_;
  std::atomic<int64_t> offset_ms_{0};
};

// A clock that stands still unless told; for unit tests. Thread-safe: the
// time is one atomic, read by worker threads while the test moves it.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(TimePoint start) : t_(start.time_since_epoch().count()) {}
  TimePoint now() const override { return TimePoint(Millis(t_.load())); }
  void set(TimePoint t) { t_ = t.time_since_epoch().count(); }
  void advance(Millis d) { t_ += d.count(); }

 private:
  std::atomic<int64_t> t_;
};

// "2027-01-31T09:00:00Z" (fractions and +hh:mm offsets accepted).
std::optional<TimePoint> parse_iso8601(std::string_view s);
// Always UTC with milliseconds: "2027-01-31T09:00:00.000Z".
std::string format_iso8601(TimePoint t);
// "90m", "2h", "30s", "7d", "1w", "1500ms"; also plain seconds "3600".
std::optional<Millis> parse_duration(std::string_view s);
// The largest unit that divides it, in words: "24 hours", "1 day", "90 minutes".
std::string describe_duration(Millis d);

// Moves of the org clock (admin API, the runner's clock step). The clock
// never passes 9999-12-31T23:59:59Z (the last second a 4-digit ISO 8601
// year writes; `set` parses no later), and one advance goes at most 100
// years, so a typo ("99999999999d") cannot make the org create and collect
// centuries of recurring due dates in one request. `set` is an instant the
// caller wrote out, bounded by the year 9999 only.
inline constexpr Millis kMaxClockMove{36525LL * 86'400'000};  // 100 years of 365.25 days
TimePoint latest_org_time();
// An advance: a whole number with a unit (ms, s, m, h, d, w); unlike
// parse_duration, no bare seconds ("90" reads as 90 minutes to some).
std::optional<Millis> parse_clock_advance(std::string_view s);
// Why an advance by `by` is refused (more than kMaxClockMove), or "".
std::string advance_error(Millis by);
// Why moving the clock from `now` to `to` is refused (past
// latest_org_time()), or "" when allowed.
std::string clock_move_error(TimePoint now, TimePoint to);

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
