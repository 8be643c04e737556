// The fixture loader with any text: errors with a place, never a hang, a
// throw or a signal; a fixture that loads also builds an org.
#include <cstddef>
#include <cstdint>
#include <string>

#include "app/org_factory.h"
#include "fixture/fixture_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  fake_org::FixtureLoad load = fake_org::load_fixture_text(text, "fuzz.yaml");
  if (load.ok()) {
    fake_org::app::OrgWiring wiring;
    wiring.notice = [](const std::string&) {};
    (void)fake_org::app::build_org(*load.config, wiring);
  }
  return 0;
}
