#include "data_versions.h"

#include <catch2/catch.hpp>

using namespace fake_org;
using namespace fake_org::data;

TEST_CASE("data versions: 31.0 up to the org's, named by release", "[domain][data]") {
  OrgConfig config;
  config.org.api_version = "59.0";
  CHECK(api_version_of(config, "v59.0") == "59.0");
  CHECK(api_version_of(config, "v31.0") == "31.0");
  for (const char* bad : {"v30.0", "v60.0", "59.0", "v59", "v59.1", "v", "", "vx.0", "v0059.0x"})
    CHECK_FALSE(api_version_of(config, bad));
  auto versions = versions_json(config);
  REQUIRE(versions.size() == 29);
  CHECK(versions[0]["label"] == "Summer '14");
  CHECK(versions[1]["label"] == "Winter '15");
  CHECK(versions[2]["label"] == "Spring '15");
  CHECK(versions[28]["label"] == "Winter '24");
  CHECK(versions[28]["url"] == "/services/data/v59.0");
  CHECK(resources_json("45.0")["queryAll"] == "/services/data/v45.0/queryAll");
}

TEST_CASE("data versions: a default org serves up to Winter '27, 68.0 (decision 139)",
          "[domain][data]") {
  const OrgConfig config;
  CHECK(config.org.api_version == "68.0");
  auto versions = versions_json(config);
  REQUIRE(versions.size() == 38);
  CHECK(versions[29]["label"] == "Spring '24");
  CHECK(versions[29]["version"] == "60.0");
  CHECK(versions[34]["label"] == "Winter '26");
  CHECK(versions[36]["label"] == "Summer '26");
  CHECK(versions.back() == nlohmann::ordered_json{{"label", "Winter '27"},
                                                  {"url", "/services/data/v68.0"},
                                                  {"version", "68.0"}});
  CHECK(api_version_of(config, "v68.0") == "68.0");
  CHECK(api_version_of(config, "v63.0") == "63.0");
  CHECK_FALSE(api_version_of(config, "v69.0"));
}
