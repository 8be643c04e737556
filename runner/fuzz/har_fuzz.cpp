// The HAR importer with any text: read_har refuses with HarError or gives
// exchanges, which the generaliser turns into a scenario that loads again.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "commands/har/har_reader.h"
#include "commands/record/generaliser.h"
#include "scenario/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  runner::har::HarImport har;
  try {
    har = runner::har::read_har(text, "https://org.example/services/apexrest/cpm/v2");
  } catch (const runner::har::HarError&) {
    return 0;
  }
  if (har.exchanges.empty()) return 0;
  runner::record::GeneraliseOptions options;
  options.name = "fuzz";
  options.api_path = har.api_path;
  const std::string yaml =
      runner::record::scenario_yaml(runner::record::generalise(har.exchanges, options));
  runner::LoadResult again = runner::load_scenario_text(yaml, "imported.yaml", ".");
  if (!again.ok()) {
    std::fprintf(stderr, "an imported HAR file gave a scenario that does not load:\n%s\n%s\n",
                 yaml.substr(0, 4000).c_str(), again.errors.front().str().c_str());
    std::abort();
  }
  return 0;
}
