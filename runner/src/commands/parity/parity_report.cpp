#include "commands/parity/parity_report.h"

#include <algorithm>
#include <filesystem>

namespace runner::parity {
namespace {

std::string clip(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  return s.substr(0, n - 3) + "...";
}

std::string pad(const std::string& s, size_t n) {
  return s.size() >= n ? s : s + std::string(n - s.size(), ' ');
}

constexpr size_t kStepNameWidth = 48;

// The file as the user would type it (relative to here when below here)
// and the step number always; the step name is what gets clipped.
std::string where(const Difference& d) {
  std::string file = d.file;
  std::error_code ec;
  const auto here = std::filesystem::current_path(ec);
  if (!ec && std::filesystem::path(file).is_absolute()) {
    auto rel = std::filesystem::path(file).lexically_relative(here).string();
    if (!rel.empty() && rel.rfind("..", 0) != 0) file = rel;
  }
  const std::string head = file + " #" + std::to_string(d.step);
  if (d.step_name.empty()) return head;
  // The name's own width, whatever the path's length: sharing one 60-column
  // budget with the path left deep files 13 characters of step name.
  return head + " " + clip(d.step_name, kStepNameWidth);
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
      rows.push_back({where(d), d.kind, clip(d.path, 40), clip(d.a, 30), clip(d.b, 30),
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
  out << r.scenarios << " scenario(s): " << r.compared << " compared, " << r.skipped.size()
      << " skipped (A cannot run " << r.skipped_a << ", B " << r.skipped_b << "); "
      << r.differences.size() << " difference(s)";
  if (allowed) out << " (" << allowed << " allowed)";
  // Agreement over nothing is not agreement.
  if (r.compared == 0)
    out << ": nothing was compared";
  else if (!r.unallowed())
    out << ": the targets agree";
  out << "\n";
}

nlohmann::json json_report(const ParityResult& r) {
  nlohmann::json j;
  j["a"] = r.a;
  j["b"] = r.b;
  j["scenarios"] = r.scenarios;
  j["skipped"] = r.skipped;
  j["differences"] = r.differences;
  j["summary"] = {{"compared", r.compared},
                  {"skipped", r.skipped.size()},
                  {"skipped_by", {{"a", r.skipped_a}, {"b", r.skipped_b}}},
                  {"differences", r.differences.size()},
                  {"allowed", r.differences.size() - r.unallowed()},
                  {"unallowed", r.unallowed()}};
  return j;
}

}  // namespace runner::parity
