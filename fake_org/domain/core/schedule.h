#pragma once
// Due dates of a recurring series, as a real scheduler computes them: every
// date is derived from the start date (the anchor), never from the previous
// date, so a monthly series from 31 January gives 28/29 February, 31 March,
// 30 April... and never drifts to the 28th.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clock.h"

namespace fake_org {

struct Frequency {
  enum class Unit { kDay, kMonth };
  Unit unit = Unit::kMonth;
  int step = 1;  // days or months between two due dates
};

// The frequency names of the three connectors' picklists: Daily, Weekly,
// Biweekly/Fortnightly, Monthly, Quarterly, Semi-Annually/Half-Yearly,
// Yearly/Annually (case-insensitive). `interval` multiplies the step (the
// fundraising schedule's TransactionInterval). nullopt for unknown names.
std::optional<Frequency> parse_frequency(std::string_view name, int interval = 1);

// The names parse_frequency knows, in the spelling a picklist would use, for
// messages (the fixture loader refuses a connector frequency not among them).
const std::vector<std::string>& frequency_names();

// The n-th due date of the series (n = 0 is the start date).
Date nth_due_date(const Date& start, const Frequency& f, int n);

// The occurrence number of `d` in the series: the largest n whose due date is
// at most d (0 when d is before the start).
int occurrence_at_or_before(const Date& start, const Frequency& f, const Date& d);

// The first due date of the series on or after `day` (the start date when
// `day` is not after it).
Date first_due_on_or_after(const Date& start, const Frequency& f, const Date& day);

// The due dates of the series in [from, to], both inclusive, stopping at
// `end` (inclusive) when given. At most `limit` dates.
std::vector<Date> due_dates(const Date& start, const Frequency& f, const std::optional<Date>& end,
                            const Date& from, const Date& to, size_t limit = 100000);

}  // namespace fake_org
