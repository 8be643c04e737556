// Due dates of recurring series: anchored on the start day, month ends and
// leap years as a real scheduler.
#include "schedule.h"

#include <catch2/catch.hpp>

using namespace fake_org;

namespace {
Date d(const char* s) {
  return *parse_date(s);
}
std::vector<std::string> texts(const std::vector<Date>& ds) {
  std::vector<std::string> out;
  for (const auto& x : ds) out.push_back(format_date(x));
  return out;
}
}  // namespace

TEST_CASE("a monthly series from 31 January keeps the month ends", "[schedule]") {
  auto m = *parse_frequency("Monthly");
  auto dates = due_dates(d("2027-01-31"), m, d("2027-12-31"), d("2027-01-01"), d("2030-01-01"));
  CHECK(texts(dates) == std::vector<std::string>{"2027-01-31", "2027-02-28", "2027-03-31",
                                                 "2027-04-30", "2027-05-31", "2027-06-30",
                                                 "2027-07-31", "2027-08-31", "2027-09-30",
                                                 "2027-10-31", "2027-11-30", "2027-12-31"});
}

TEST_CASE("a leap year gives 29 February and the series never drifts", "[schedule]") {
  auto m = *parse_frequency("monthly");
  CHECK(format_date(nth_due_date(d("2028-01-31"), m, 1)) == "2028-02-29");
  CHECK(format_date(nth_due_date(d("2028-01-31"), m, 2)) == "2028-03-31");
  CHECK(format_date(nth_due_date(d("2028-01-30"), m, 1)) == "2028-02-29");
  CHECK(format_date(nth_due_date(d("2028-01-30"), m, 2)) == "2028-03-30");
  auto y = *parse_frequency("Yearly");
  CHECK(format_date(nth_due_date(d("2028-02-29"), y, 1)) == "2029-02-28");
  CHECK(format_date(nth_due_date(d("2028-02-29"), y, 4)) == "2032-02-29");
  auto q = *parse_frequency("Quarterly");
  CHECK(format_date(nth_due_date(d("2027-11-30"), q, 1)) == "2028-02-29");
  CHECK(format_date(nth_due_date(d("2027-11-30"), q, 2)) == "2028-05-30");
}

TEST_CASE("day-based frequencies step in days", "[schedule]") {
  auto w = *parse_frequency("Weekly");
  CHECK(texts(due_dates(d("2027-12-20"), w, std::nullopt, d("2027-12-21"), d("2028-01-10"))) ==
        std::vector<std::string>{"2027-12-27", "2028-01-03", "2028-01-10"});
  auto daily = *parse_frequency("Daily");
  CHECK(
      due_dates(d("2028-02-27"), daily, d("2028-03-01"), d("2028-01-01"), d("2029-01-01")).size() ==
      4);  // 27, 28, 29 Feb and 1 Mar
  CHECK(parse_frequency("Fortnightly")->step == 14);
  CHECK(parse_frequency("Monthly", 2)->step == 2);
}

TEST_CASE("occurrences count from the anchor", "[schedule]") {
  auto m = *parse_frequency("Monthly");
  CHECK(occurrence_at_or_before(d("2027-01-31"), m, d("2027-01-30")) == 0);
  CHECK(occurrence_at_or_before(d("2027-01-31"), m, d("2027-02-27")) == 0);
  CHECK(occurrence_at_or_before(d("2027-01-31"), m, d("2027-02-28")) == 1);
  CHECK(occurrence_at_or_before(d("2027-01-31"), m, d("2027-03-30")) == 1);
  CHECK(occurrence_at_or_before(d("2027-01-31"), m, d("2027-03-31")) == 2);
  // A window between two dates holds none.
  CHECK(due_dates(d("2027-01-31"), m, std::nullopt, d("2027-03-01"), d("2027-03-30")).empty());
}

TEST_CASE("the first due date on or after a day keeps the anchor", "[schedule]") {
  auto m = *parse_frequency("Monthly");
  // Before or on the start: the start itself.
  CHECK(format_date(first_due_on_or_after(d("2027-01-31"), m, d("2026-12-01"))) == "2027-01-31");
  CHECK(format_date(first_due_on_or_after(d("2027-01-31"), m, d("2027-01-31"))) == "2027-01-31");
  // After it: the anchor's day, month ends as the schedule has them.
  CHECK(format_date(first_due_on_or_after(d("2027-01-31"), m, d("2027-02-01"))) == "2027-02-28");
  CHECK(format_date(first_due_on_or_after(d("2027-01-31"), m, d("2027-03-31"))) == "2027-03-31");
  CHECK(format_date(first_due_on_or_after(d("2020-01-01"), m, d("2027-01-30"))) == "2027-02-01");
  auto w = *parse_frequency("Weekly");
  CHECK(format_date(first_due_on_or_after(d("2027-01-04"), w, d("2027-01-12"))) == "2027-01-18");
  CHECK(format_date(first_due_on_or_after(d("2027-01-04"), w, d("2027-01-11"))) == "2027-01-11");
}

TEST_CASE("unknown frequencies are refused", "[schedule]") {
  CHECK_FALSE(parse_frequency("Sometimes"));
  CHECK_FALSE(parse_frequency("1st and 15th"));
  CHECK_FALSE(parse_frequency("Monthly", 0));
}
