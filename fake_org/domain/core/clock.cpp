#include "clock.h"

namespace fake_org {

TimePoint SystemClock::now() const {
  return std::chrono::time_point_cast<Millis>(std::chrono::system_clock::now());
}

AdjustableClock::AdjustableClock(std::shared_ptr<const Clock> base) : base_(std::move(base)) {}

TimePoint AdjustableClock::now() const {
  return base_->now() + Millis(offset_ms_.load());
}

void AdjustableClock::set(TimePoint t) {
  offset_ms_ = (t - base_->now()).count();
}

void AdjustableClock::advance(Millis d) {
  offset_ms_ += d.count();
}

void AdjustableClock::reset() {
  offset_ms_ = 0;
}

TimePoint latest_org_time() {
  return TimePoint(Millis(253402300799000LL));  // 9999-12-31T23:59:59Z
}

std::string advance_error(Millis by) {
  if (by > kMaxClockMove)
    return "one advance goes forward at most 100 years (36525d); advance in several steps or "
           "set the instant";
  return "";
}

std::string clock_move_error(TimePoint now, TimePoint to) {
  if (to > latest_org_time())
    return "the org clock goes no later than 9999-12-31T23:59:59Z; " + format_iso8601(now) +
           " moved that way would be past it";
  return "";
}

}  // namespace fake_org
