// POST /__admin/orgs names fixture files only under --fixtures-dir: no other
// file of the machine is read or quoted, and what the filesystem refuses (a
// name too long, a symbolic link loop) is the client's 400, never a 500.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "app/embedded.h"
#include "app/fixture_paths.h"
#include "testing/fixtures.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A fixtures directory and, beside it, a directory it does not cover.
struct FixtureDirs {
  fs::path root, inside, outside;
  FixtureDirs() {
    root = fs::temp_directory_path() / ("fake-org-fixture-paths-" + std::to_string(::getpid()) +
                                        "-" + std::to_string(reinterpret_cast<uintptr_t>(this)));
    inside = root / "fixtures";
    outside = root / "elsewhere";
    fs::create_directories(inside / "nested");
    fs::create_directories(outside);
    write(inside / "nested" / "shop.yaml", "extends: default.yaml\n");
    // A valid fixture the server must not read: outside the directory.
    write(outside / "secret.yaml", "extends: default.yaml  # secret-line-7f3a\n");
    fs::create_symlink(outside / "secret.yaml", inside / "link.yaml");
    fs::create_symlink(inside / "loop-b.yaml", inside / "loop-a.yaml");
    fs::create_symlink(inside / "loop-a.yaml", inside / "loop-b.yaml");
  }
  ~FixtureDirs() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  static void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }
};

struct FixtureServer {
  std::unique_ptr<EmbeddedOrg> org;
  std::unique_ptr<httplib::Client> client;
  explicit FixtureServer(std::vector<std::string> dirs) {
    EmbeddedOptions o;
    o.max_orgs = 10;
    o.fixtures_dirs = std::move(dirs);
    org = EmbeddedOrg::start(fixture("default.yaml"), o);
    client = std::make_unique<httplib::Client>("127.0.0.1", org->port());
  }
  std::pair<int, std::string> create(const std::string& spec) {
    auto r = client->Post("/__admin/orgs", json{{"fixture", spec}, {"login_paths", false}}.dump(),
                          "application/json");
    REQUIRE(r);
    return {r->status, r->body};
  }
};

}  // namespace

TEST_CASE("POST /__admin/orgs reads fixture files only under --fixtures-dir", "[orgs][security]") {
  FixtureDirs d;
  FixtureServer s({d.inside.string()});
  // Inside: by a relative path or an absolute one.
  CHECK(s.create("nested/shop.yaml").first == 201);
  CHECK(s.create((d.inside / "nested" / "shop.yaml").string()).first == 201);
  // Shipped fixtures by name, as before.
  CHECK(s.create("nonprofit.yaml").first == 201);
  for (const std::string& spec :
       {(d.outside / "secret.yaml").string(), std::string("../elsewhere/secret.yaml"),
        (d.inside / ".." / "elsewhere" / "secret.yaml").string(), std::string("link.yaml"),
        std::string("/etc/passwd"), std::string("/etc/hostname.yaml"),
        std::string("/proc/self/environ")}) {
    INFO(spec);
    auto [status, body] = s.create(spec);
    INFO(body);
    CHECK(status == 400);
    CHECK(body.find("INVALID_FIXTURE") != std::string::npos);
    CHECK(body.find("--fixtures-dir") != std::string::npos);
    CHECK(body.find("secret-line") == std::string::npos);
    CHECK(body.find("root:") == std::string::npos);
  }
}

TEST_CASE("without --fixtures-dir a request names shipped fixtures or sends one inline",
          "[orgs][security]") {
  FixtureDirs d;
  FixtureServer s({});
  auto [status, body] = s.create((d.inside / "nested" / "shop.yaml").string());
  INFO(body);
  CHECK(status == 400);
  CHECK(body.find("--fixtures-dir DIR") != std::string::npos);
  auto inline_fixture = s.client->Post(
      "/__admin/orgs",
      json{{"fixture", {{"extends", "default.yaml"}}}, {"login_paths", false}}.dump(),
      "application/json");
  REQUIRE(inline_fixture);
  CHECK(inline_fixture->status == 201);
}

TEST_CASE("a fixture name the filesystem refuses answers 400", "[orgs][security]") {
  FixtureDirs d;
  FixtureServer s({d.inside.string()});
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "deeper/";
  for (const std::string& spec :
       {std::string(300, 'a') + ".yaml", std::string("loop-a.yaml"), deep + "x.yaml",
        (d.inside / std::string(300, 'b')).string() + "/x.yaml",
        std::string(5000, 'c') + ".yaml"}) {
    INFO(spec.substr(0, 60));
    auto [status, body] = s.create(spec);
    INFO(body.substr(0, 400));
    CHECK(status == 400);
    CHECK(body.find("INVALID_FIXTURE") != std::string::npos);
  }
  std::string error;
  CHECK_FALSE(app::fixture_file_under("loop-a.yaml", {d.inside.string()}, error));
  CHECK(error.find("symbolic links") != std::string::npos);
}
