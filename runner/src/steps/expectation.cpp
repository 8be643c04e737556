#include "steps/expectation.h"

#include "eval/json_diff.h"

namespace runner {
namespace {

std::string snippet(const std::string& body) {
  if (body.empty()) return "(empty body)";
  return body.size() > 600 ? body.substr(0, 600) + "..." : body;
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
                ""};
      out.push_back(std::move(f));
    }
  } else if (default_2xx && (response.status < 200 || response.status > 299)) {
    out.push_back({"status",
                   "expected a 2xx status (the expect block names none), got " +
                       std::to_string(response.status) + "\nbody: " + snippet(response.body),
                   {{"", "2xx", status.dump()}},
                   ""});
  }
  for (const auto& [name, want_raw] : expect.headers) {
    nlohmann::json want = in.value(want_raw);
    auto got = response.header(in.text(name));
    nlohmann::json actual = got ? nlohmann::json(*got) : nlohmann::json();
    auto m = match_json(want, got ? &actual : nullptr, {}, "header " + name);
    if (!m.empty()) out.push_back({"headers", m.front().str(), m, ""});
  }
  if (expect.body) {
    nlohmann::json want = in.value(*expect.body);
    nlohmann::json actual = response.body;
    auto m = match_json(want, &actual, {}, "body");
    if (!m.empty()) out.push_back({"body", m.front().str(), m, ""});
  }
  if (expect.json) {
    nlohmann::json want = in.value(*expect.json);
    auto actual = response.json();
    if (!actual) {
      out.push_back(
          {"json", "expected a JSON body; the body is " + response.not_json_reason(), {}, ""});
    } else {
      MatchOptions o{expect.exact};
      auto m = match_json(want, &*actual, o);
      if (!m.empty()) {
        std::string msg = std::to_string(m.size()) + " difference" + (m.size() == 1 ? "" : "s") +
                          " in the JSON body" + (expect.exact ? " (exact match)" : "") + ":";
        for (const auto& x : m) msg += "\n  " + x.str();
        out.push_back({"json", msg, m, json_diff(want, &*actual, o)});
      }
    }
  }
  return out;
}

}  // namespace runner
