#include "tooling_query.h"

#include <catch2/catch.hpp>

namespace fake_org::data {

TEST_CASE("tooling query: SandboxProcess answers no rows, in the Tooling API's shape",
          "[domain][data]") {
  // The platform CLI's own query, as it sends it after a login.
  auto r = tooling_query(
      "SELECT Id,Status,SandboxName,SandboxInfoId,LicenseType,CreatedDate,CopyProgress,"
      "SandboxOrganization,SourceId,Description,EndDate FROM SandboxProcess WHERE "
      "SandboxOrganization='00D7Q00000LoCaL' ORDER BY CreatedDate DESC");
  REQUIRE(r.ok());
  CHECK(r->dump() == R"({"size":0,"totalSize":0,"done":true,"queryLocator":null,)"
                     R"("entityTypeName":"SandboxProcess","records":[]})");
  auto lower = tooling_query("select id from sandboxinfo where name = 'from x'");
  REQUIRE(lower.ok());
  CHECK((*lower)["entityTypeName"] == "SandboxInfo");
}

TEST_CASE("tooling query: other objects and queries without FROM are refused", "[domain][data]") {
  auto apex = tooling_query("SELECT Id, Name FROM ApexClass");
  REQUIRE_FALSE(apex.ok());
  CHECK(apex.errors().front().code == "INVALID_TYPE");
  CHECK(apex.errors().front().message.rfind("sObject type 'ApexClass' is not supported.", 0) == 0);
  // A FROM inside a quoted value or a subquery is not the query's own.
  auto quoted = tooling_query("SELECT Id WHERE Name = 'FROM SandboxProcess'");
  REQUIRE_FALSE(quoted.ok());
  CHECK(quoted.errors().front().code == "MALFORMED_QUERY");
  auto sub = tooling_query("SELECT (SELECT Id FROM SandboxProcess) FROM Organization");
  REQUIRE_FALSE(sub.ok());
  CHECK(sub.errors().front().message.find("'Organization'") != std::string::npos);
  for (const char* odd : {"", "FROM", "FROM ", "'", "SELECT Id FROM\\", "((((FROM x"})
    CHECK_FALSE(tooling_query(odd).ok());
}

}  // namespace fake_org::data
