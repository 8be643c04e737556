#include "commands/record/write_scenario.h"

#include <filesystem>
#include <fstream>

#include "scenario/loader.h"

namespace runner::record {

int write_scenario(const Generalised& g, const std::string& path, std::ostream& out,
                   std::ostream& err) {
  std::string text;
  try {
    text = scenario_yaml(g);
  } catch (const std::exception& e) {
    err << e.what() << "\n";
    return 2;
  }
  const std::string dir = std::filesystem::path(path).parent_path().string();
  LoadResult loaded = load_scenario_text(text, path, dir.empty() ? "." : dir);
  {
    std::ofstream f(path, std::ios::binary);
    f << text;
    if (!f) {
      err << "cannot write " << path << "\n";
      return 2;
    }
  }
  for (const auto& n : g.notes) out << "note: " << n << "\n";
  if (!loaded.ok()) {
    for (const auto& e : loaded.errors) err << e.str() << "\n";
    err << path << " was written but does not load; please report this with the recording\n";
    return 2;
  }
  out << "wrote " << path << ": " << loaded.scenario->steps.size() << " step(s)";
  if (!g.env.empty()) {
    out << "; the replay needs these environment variables:";
    for (const auto& e : g.env) out << " " << e;
  }
  out << "\n";
  return 0;
}

}  // namespace runner::record
