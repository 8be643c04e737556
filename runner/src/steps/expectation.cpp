#include "steps/expectation.h"

#include "eval/csv_expect.h"
#include "eval/expected_pointer.h"
#include "eval/json_diff.h"

namespace runner {
namespace {

std::string snippet(const std::string& body) {
  if (body.empty()) return "(empty body)";
  return body.size() > 600 ? body.substr(0, 600) + "..." : body;
}

// Where `pointer` (into an expected value written at `base`) is written: the
// value itself, or the closest one around it.
SourcePos written_at(const std::map<std::string, std::pair<int, int>>& at, const SourcePos& base,
                     std::string pointer) {
  while (true) {
    if (auto it = at.find(pointer); it != at.end())
      return {base.file, it->second.first, it->second.second};
    if (pointer.empty()) return base;
    pointer = pointer.substr(0, pointer.rfind('/'));
  }
}

// The line of the expected JSON a mismatch at `pointer` (into the body) was
// checked against.
SourcePos json_assertion_pos(const Expectation& e, const std::string& pointer) {
  return written_at(e.json_at, e.json_pos, expected_pointer(*e.json, pointer));
}

void check_csv_body(const Expectation& expect, const Interpolator& in, const HttpResponse& response,
                    std::vector<Failure>& out) {
  CsvCheck c = check_csv(in.value(*expect.csv), response.body);
  if (!c.error.empty()) {
    out.push_back(
        {"csv",
         "expected a CSV body; the body is " + c.error + "\nbody: " + snippet(response.body),
         {},
         "",
         expect.csv_pos});
    return;
  }
  if (c.mismatches.empty()) return;
  std::string msg = std::to_string(c.mismatches.size()) + " difference" +
                    (c.mismatches.size() == 1 ? "" : "s") + " in the CSV body:";
  constexpr size_t kListed = 10;  // 3 bad rows of 10,000 list fully; a wrong header not
  for (size_t i = 0; i < c.mismatches.size() && i < kListed; ++i)
    msg += "\n  " + c.mismatches[i].str();
  if (c.mismatches.size() > kListed)
    msg += "\n  ... " + std::to_string(c.mismatches.size() - kListed) + " more";
  const SourcePos at = written_at(expect.csv_at, expect.csv_pos, c.at.front());
  out.push_back({"csv", msg, std::move(c.mismatches), std::move(c.diff), at});
}

}  // namespace

std::vector<Failure> check_expectation(const Expectation& expect, const Interpolator& in,
                                       const HttpResponse& response, bool default_2xx) {
  std::vector<Failure> out;
  const nlohmann::json status = response.status;
  if (expect.status) {
    nlohmann::json want = in.value(*expect.status);
    bool ok = want.is_array() ? std::any_of(want.begin(), want.end(),
                                            [&](const nlohmann::json& s) { return s == status; })
                              : json_matches(want, status);
    if (!ok) {
      Failure f{"status",
                "expected status " +
                    (want.is_array() ? "one of " + want.dump() : describe_expected(want)) +
                    ", got " + std::to_string(response.status) +
                    "\nbody: " + snippet(response.body),
                {{"", describe_expected(want), status.dump()}},
                "",
                expect.status_pos};
      out.push_back(std::move(f));
    }
  } else if (default_2xx && (response.status < 200 || response.status > 299)) {
    out.push_back({"status",
                   "expected a 2xx status (the expect block names none), got " +
                       std::to_string(response.status) + "\nbody: " + snippet(response.body),
                   {{"", "2xx", status.dump()}},
                   "",
                   expect.pos});
  }
  for (size_t i = 0; i < expect.headers.size(); ++i) {
    const auto& [name, want_raw] = expect.headers[i];
    nlohmann::json want = in.value(want_raw);
    auto got = response.header(in.text(name));
    nlohmann::json actual = got ? nlohmann::json(*got) : nlohmann::json();
    auto m = match_json(want, got ? &actual : nullptr, {}, "header " + name);
    const SourcePos at = i < expect.header_pos.size() ? expect.header_pos[i] : expect.pos;
    if (!m.empty()) out.push_back({"headers", m.front().str(), m, "", at});
  }
  if (expect.body) {
    nlohmann::json want = in.value(*expect.body);
    nlohmann::json actual = response.body;
    auto m = match_json(want, &actual, {}, "body");
    if (!m.empty()) out.push_back({"body", m.front().str(), m, "", expect.body_pos});
  }
  if (expect.csv) check_csv_body(expect, in, response, out);
  if (expect.json) {
    nlohmann::json want = in.value(*expect.json);
    auto actual = response.json();
    if (!actual) {
      out.push_back({"json",
                     "expected a JSON body; the body is " + response.not_json_reason(),
                     {},
                     "",
                     expect.json_pos});
    } else {
      MatchOptions o{expect.exact};
      auto m = match_json(want, &*actual, o);
      if (!m.empty()) {
        std::string msg = std::to_string(m.size()) + " difference" + (m.size() == 1 ? "" : "s") +
                          " in the JSON body" + (expect.exact ? " (exact match)" : "") + ":";
        for (const auto& x : m) msg += "\n  " + x.str();
        out.push_back({"json", msg, m, json_diff(want, &*actual, o),
                       json_assertion_pos(expect, m.front().pointer)});
      }
    }
  }
  return out;
}

}  // namespace runner
