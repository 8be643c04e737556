// Production and sandbox orgs (spec 5.3): each authorizes at its own login
// host, served locally as /login (production) and /test (sandbox); the other
// host does not know the org's apps; the token's identity URL names the org's
// login host.
#include <catch2/catch.hpp>

#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

const std::string kAuthorizeQuery =
    "/services/oauth2/authorize?response_type=code&client_id=local-client"
    "&redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Fcallback&state=s1";

struct Environment {
  const char* fixture;
  bool sandbox;
  const char* own;    // login host path of the org's kind
  const char* other;  // the other kind's
};

}  // namespace

TEST_CASE("production and sandbox orgs authorize at their own login host", "[oauth][env]") {
  for (const Environment& e : {Environment{"default.yaml", false, "/login", "/test"},
                               Environment{"nonprofit.yaml", true, "/test", "/login"}}) {
    INFO(e.fixture);
    TestOrg t(fixture(e.fixture));
    REQUIRE(t.org().config().org.sandbox == e.sandbox);
    auto& cli = t.client();

    // The token's identity URL is on the org's login host.
    auto token =
        cli.Post("/services/oauth2/token", httplib::Params{{"grant_type", "client_credentials"},
                                                           {"client_id", "local-client"},
                                                           {"client_secret", "local-secret"}});
    REQUIRE(token);
    REQUIRE(token->status == 200);
    json body = json::parse(token->body);
    const std::string instance = body["instance_url"];
    CHECK(body["id"].get<std::string>().rfind(
              instance + e.own + "/id/" + t.org().config().org.org_id + "/", 0) == 0);

    // The own login host shows the approval page, which posts back to it, and
    // the decision redirects with a code.
    auto page = cli.Get((std::string(e.own) + kAuthorizeQuery).c_str());
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(page->body.find("action=\"" + std::string(e.own) + "/services/oauth2/authorize\"") !=
          std::string::npos);
    CHECK((page->body.find("(sandbox)") != std::string::npos) == e.sandbox);
    auto decision = cli.Post((std::string(e.own) + "/services/oauth2/authorize").c_str(),
                             httplib::Params{{"response_type", "code"},
                                             {"client_id", "local-client"},
                                             {"redirect_uri", "http://localhost:8080/callback"},
                                             {"state", "s1"},
                                             {"decision", "allow"}});
    REQUIRE(decision);
    CHECK(decision->status == 302);
    CHECK(decision->get_header_value("Location").rfind("http://localhost:8080/callback?code=", 0) ==
          0);

    // A client configured for the other kind of org: the platform's error.
    auto wrong = cli.Get((std::string(e.other) + kAuthorizeQuery).c_str());
    REQUIRE(wrong);
    CHECK(wrong->status == 400);
    CHECK(wrong->get_header_value("Location").empty());
    CHECK(wrong->body.find("invalid_client_id") != std::string::npos);
    CHECK(wrong->body.find(std::string("this org is a ") +
                           (e.sandbox ? "sandbox" : "production")) != std::string::npos);
    auto wrong_post = cli.Post((std::string(e.other) + "/services/oauth2/authorize").c_str(),
                               httplib::Params{{"client_id", "local-client"},
                                               {"redirect_uri", "http://localhost:8080/callback"},
                                               {"response_type", "code"},
                                               {"decision", "allow"}});
    REQUIRE(wrong_post);
    CHECK(wrong_post->status == 400);

    // The instance's own authorize endpoint serves either kind.
    auto instance_page = cli.Get(kAuthorizeQuery.c_str());
    REQUIRE(instance_page);
    CHECK(instance_page->status == 200);
  }
}
