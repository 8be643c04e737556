// The scenario loader with any text: every mistake is an error with its
// file:line:col, never a hang, a throw or a signal.
#include <cstddef>
#include <cstdint>
#include <string>

#include "scenario/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  runner::LoadResult r = runner::load_scenario_text(text, "fuzz.yaml", ".");
  for (const auto& e : r.errors) (void)e.str();
  return 0;
}
