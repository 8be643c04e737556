#include "schedule.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace fake_org {

namespace {
std::string lower(std::string_view s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '-' && c != '_')
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
}  // namespace

std::optional<Frequency> parse_frequency(std::string_view name, int interval) {
  if (interval < 1) return std::nullopt;
  using U = Frequency::Unit;
  const std::string n = lower(name);
  Frequency f;
  if (n == "daily" || n == "day" || n == "days")
    f = {U::kDay, 1};
  else if (n == "weekly" || n == "week" || n == "weeks")
    f = {U::kDay, 7};
  else if (n == "biweekly" || n == "fortnightly")
    f = {U::kDay, 14};
  else if (n == "monthly" || n == "month" || n == "months")
    f = {U::kMonth, 1};
  else if (n == "quarterly")
    f = {U::kMonth, 3};
  else if (n == "semiannually" || n == "halfyearly" || n == "biannually")
    f = {U::kMonth, 6};
  else if (n == "yearly" || n == "annually" || n == "year" || n == "years")
    f = {U::kMonth, 12};
  else
    return std::nullopt;
  f.step *= interval;
  return f;
}

const std::vector<std::string>& frequency_names() {
  static const std::vector<std::string> names = {
      "Daily",         "Weekly",      "Biweekly",    "Fortnightly", "Monthly", "Quarterly",
      "Semi-Annually", "Half-Yearly", "Bi-Annually", "Yearly",      "Annually"};
  return names;
}

Date nth_due_date(const Date& start, const Frequency& f, int n) {
  if (f.unit == Frequency::Unit::kDay) return add_days(start, n * f.step);
  return add_months(start, n * f.step);
}

int occurrence_at_or_before(const Date& start, const Frequency& f, const Date& d) {
  if (d < start) return 0;
  int n;
  if (f.unit == Frequency::Unit::kDay) {
    n = static_cast<int>((days_from_civil(d) - days_from_civil(start)) / f.step);
  } else {
    int months = (d.year - start.year) * 12 + (d.month - start.month);
    n = months / f.step;
  }
  // The month estimate may overshoot by one where the anchor day is later in
  // the month than d's day.
  while (n > 0 && d < nth_due_date(start, f, n)) --n;
  return n;
}

Date first_due_on_or_after(const Date& start, const Frequency& f, const Date& day) {
  int n = occurrence_at_or_before(start, f, day);
  Date d = nth_due_date(start, f, n);
  return d < day ? nth_due_date(start, f, n + 1) : d;
}

std::vector<Date> due_dates(const Date& start, const Frequency& f, const std::optional<Date>& end,
                            const Date& from, const Date& to, size_t limit) {
  std::vector<Date> out;
  int n = occurrence_at_or_before(start, f, from);
  if (nth_due_date(start, f, n) < from) ++n;
  for (; out.size() < limit; ++n) {
    Date d = nth_due_date(start, f, n);
    if (to < d || (end && *end < d)) break;
    out.push_back(d);
  }
  return out;
}

}  // namespace fake_org
