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

#include "util/calendar.h"

namespace fake_org {

using Clock_ = std::chrono::system_clock;

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

// Moves of the org clock (admin API, the runner's clock step). The clock
// never passes 9999-12-31T23:59:59Z (the last second a 4-digit ISO 8601
// year writes; `set` parses no later), and one advance goes at most 100
// years, so a typo ("99999999999d") cannot make the org create and collect
// centuries of recurring due dates in one request. `set` is an instant the
// caller wrote out, bounded by the year 9999 only.
inline constexpr Millis kMaxClockMove{36525LL * 86'400'000};  // 100 years of 365.25 days
TimePoint latest_org_time();
// Why an advance by `by` is refused (more than kMaxClockMove), or "".
std::string advance_error(Millis by);
// Why moving the clock from `now` to `to` is refused (past
// latest_org_time()), or "" when allowed.
std::string clock_move_error(TimePoint now, TimePoint to);

}  // namespace fake_org
