#include "commands/parity/parity_report.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

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

std::vector<DifferenceGroup> group_differences(const std::vector<Difference>& differences) {
  std::vector<DifferenceGroup> groups;
  std::map<std::tuple<std::string, std::string, std::string, std::string, bool>, size_t> index;
  for (const auto& d : differences) {
    const auto key = std::make_tuple(d.kind, d.path, d.a, d.b, d.allowed);
    auto [it, fresh] = index.emplace(key, groups.size());
    if (fresh) groups.push_back({d, {}});
    groups[it->second].all.push_back(&d);
  }
  return groups;
}

namespace {

void parity_print_header(const ParityResult& r, std::ostream& out) {
  out << "parity: A = " << r.a << ", B = " << r.b << "\n";
  for (const auto& [label, side] : {std::pair{"A", &r.side_a}, std::pair{"B", &r.side_b}}) {
    if (side->fixture.empty()) continue;
    out << "  " << label << ": fixture " << side->fixture << "; API version " << side->api_version
        << "\n";
  }
}

// One row per distinct (kind, path, a, b): the first place it was seen and
// how many more (956 rows were 93 distinct differences over a whole suite).
void parity_print_groups(const std::vector<DifferenceGroup>& groups, std::ostream& out) {
  struct Row {
    std::string where, kind, path, a, b, note;
  };
  std::vector<Row> rows;
  rows.push_back({"SCENARIO / STEP", "KIND", "PATH", "A", "B", ""});
  for (const auto& g : groups) {
    const Difference& d = g.first;
    std::string note =
        g.all.size() > 1 ? "x" + std::to_string(g.all.size()) + " (first shown)" : "";
    if (d.allowed) note += (note.empty() ? "" : "; ") + ("allowed: " + d.reason);
    rows.push_back({where(d), d.kind, clip(d.path, 40), clip(d.a, 30), clip(d.b, 30), note});
  }
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

}  // namespace

void print_table(const ParityResult& r, std::ostream& out) {
  parity_print_header(r, out);
  for (const auto& s : r.skipped) out << "skipped " << s << "\n";
  const std::vector<DifferenceGroup> groups = group_differences(r.differences);
  if (!groups.empty()) parity_print_groups(groups, out);
  const size_t allowed = r.differences.size() - r.unallowed();
  out << r.scenarios << " scenario(s): " << r.compared << " compared, " << r.skipped.size()
      << " skipped (A cannot run " << r.skipped_a << ", B " << r.skipped_b << "); "
      << r.differences.size() << " difference(s)";
  if (groups.size() != r.differences.size()) out << ", " << groups.size() << " distinct";
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
  auto side = [](const SideFacts& f) {
    return nlohmann::json{
        {"target", f.target}, {"fixture", f.fixture}, {"api_version", f.api_version}};
  };
  j["sides"] = {{"a", side(r.side_a)}, {"b", side(r.side_b)}};
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& g : group_differences(r.differences)) {
    nlohmann::json where = nlohmann::json::array();
    for (const Difference* d : g.all)
      where.push_back({{"file", d->file}, {"step", d->step}, {"step_name", d->step_name}});
    groups.push_back({{"kind", g.first.kind},
                      {"path", g.first.path},
                      {"a", g.first.a},
                      {"b", g.first.b},
                      {"allowed", g.first.allowed},
                      {"count", g.all.size()},
                      {"where", where}});
  }
  j["groups"] = groups;
  j["summary"] = {{"compared", r.compared},
                  {"skipped", r.skipped.size()},
                  {"skipped_by", {{"a", r.skipped_a}, {"b", r.skipped_b}}},
                  {"differences", r.differences.size()},
                  {"distinct", groups.size()},
                  {"allowed", r.differences.size() - r.unallowed()},
                  {"unallowed", r.unallowed()}};
  return j;
}

}  // namespace runner::parity
