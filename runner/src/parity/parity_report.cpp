#include "parity/parity_report.h"

#include <algorithm>

namespace runner::parity {
namespace {

std::string clip(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  return s.substr(0, n - 3) + "...";
}

std::string pad(const std::string& s, size_t n) {
  return s.size() >= n ? s : s + std::string(n - s.size(), ' ');
}

}  // namespace

void print_table(const ParityResult& r, std::ostream& out) {
  out << "parity: A = " << r.a << ", B = " << r.b << "\n";
  for (const auto& s : r.skipped) out << "skipped " << s << "\n";
  if (!r.differences.empty()) {
    struct Row {
      std::string where, kind, path, a, b, note;
    };
    std::vector<Row> rows;
    rows.push_back({"SCENARIO / STEP", "KIND", "PATH", "A", "B", ""});
    for (const auto& d : r.differences)
      rows.push_back({clip(d.file + " #" + std::to_string(d.step) + " " + d.step_name, 60), d.kind,
                      clip(d.path, 40), clip(d.a, 30), clip(d.b, 30),
                      d.allowed ? "allowed: " + d.reason : ""});
    size_t w[5] = {0, 0, 0, 0, 0};
    for (const auto& row : rows) {
      w[0] = std::max(w[0], row.where.size());
      w[1] = std::max(w[1], row.kind.size());
      w[2] = std::max(w[2], row.path.size());
      w[3] = std::max(w[3], row.a.size());
      w[4] = std::max(w[4], row.b.size());
    }
    for (const auto& row : rows) {
      std::string line = pad(row.where, w[0]) + "  " + pad(row.kind, w[1]) + "  " +
                         pad(row.path, w[2]) + "  " + pad(row.a, w[3]) + "  " + pad(row.b, w[4]) +
                         "  " + row.note;
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out << line << "\n";
    }
  }
  const size_t allowed = r.differences.size() - r.unallowed();
  out << r.scenarios << " scenario(s), " << r.differences.size() << " difference(s)";
  if (allowed) out << " (" << allowed << " allowed)";
  out << (r.unallowed() ? "" : ": the targets agree") << "\n";
}

nlohmann::json json_report(const ParityResult& r) {
  nlohmann::json j;
  j["a"] = r.a;
  j["b"] = r.b;
  j["scenarios"] = r.scenarios;
  j["skipped"] = r.skipped;
  j["differences"] = r.differences;
  j["summary"] = {{"differences", r.differences.size()},
                  {"allowed", r.differences.size() - r.unallowed()},
                  {"unallowed", r.unallowed()}};
  return j;
}

}  // namespace runner::parity
