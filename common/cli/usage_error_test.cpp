#include "cli/usage_error.h"

#include <catch2/catch.hpp>

#include <sstream>

namespace {

struct UsageApp {
  CLI::App app{"test"};
  int port = 0;
  std::string fixture;
  std::string org;
  UsageApp() {
    app.add_option("--port", port);
    app.add_option("--fixture", fixture);
    app.add_subcommand("init")->add_option("--org-name", org);
  }
  int run(std::vector<std::string> args, std::string& err_text) {
    std::vector<const char*> argv{"test"};
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    int status = 0;
    try {
      app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& e) {
      status = common_cli::usage_error(app, e, out, err);
    }
    err_text = err.str();
    return status;
  }
};

}  // namespace

TEST_CASE("a mistyped option is answered with the nearest one and status 2") {
  UsageApp u;
  std::string err;
  CHECK(u.run({"--prot", "8080"}, err) == 2);
  CHECK(err.find("unknown option --prot; did you mean --port?") != std::string::npos);
  UsageApp v;
  CHECK(v.run({"--fixtur=x.yaml"}, err) == 2);
  CHECK(err.find("did you mean --fixture?") != std::string::npos);
}

TEST_CASE("an option of a subcommand is suggested too") {
  UsageApp u;
  std::string err;
  CHECK(u.run({"init", "--org-nam", "x"}, err) == 2);
  CHECK(err.find("did you mean --org-name?") != std::string::npos);
}

TEST_CASE("an option nothing resembles gets no guess, still status 2") {
  UsageApp u;
  std::string err;
  CHECK(u.run({"--verbose"}, err) == 2);
  CHECK(err.find("did you mean") == std::string::npos);
  CHECK(err.find("--verbose") != std::string::npos);
  CHECK(common_cli::nearest_option(u.app, "port") == "");
  CHECK(common_cli::nearest_option(u.app, "--potr") == "--port");
}

TEST_CASE("--help is no usage error") {
  UsageApp u;
  std::string err;
  CHECK(u.run({"--help"}, err) == 0);
}
