#include "events/remote_sites.h"

#include <catch2/catch.hpp>

using namespace fake_org;

namespace {

RemoteSites default_sites() {
  return RemoteSites(
      {{"Localhost", "http://localhost", true}, {"Loopback", "http://127.0.0.1", true}});
}

}  // namespace

TEST_CASE("parse_http_url splits scheme, host, port, path and query", "[webhooks][remote_sites]") {
  auto u = parse_http_url("HTTP://Example.COM:8080/a/b?x=1#frag");
  REQUIRE(u);
  CHECK(u->scheme == "http");
  CHECK(u->host == "example.com");
  CHECK(u->port == 8080);
  CHECK(u->explicit_port);
  CHECK(u->path == "/a/b");
  CHECK(u->query == "x=1");
  CHECK(u->target() == "/a/b?x=1");
  CHECK(u->origin() == "http://example.com:8080");

  auto d = parse_http_url("https://example.com");
  REQUIRE(d);
  CHECK(d->port == 443);
  CHECK_FALSE(d->explicit_port);
  CHECK(d->path == "/");
  CHECK(d->origin() == "https://example.com");

  auto v6 = parse_http_url("http://[::1]:9000/hook");
  REQUIRE(v6);
  CHECK(v6->host == "[::1]");
  CHECK(v6->port == 9000);
  CHECK(v6->path == "/hook");

  auto empty_port = parse_http_url("http://localhost:/x");
  REQUIRE(empty_port);
  CHECK(empty_port->port == 80);
}

TEST_CASE("parse_http_url refuses what cannot be a webhook URL", "[webhooks][remote_sites]") {
  std::string why;
  CHECK_FALSE(parse_http_url("ftp://localhost/x", &why));
  CHECK(why == "URL 'ftp://localhost/x' has scheme ftp; only http and https are permitted");
  CHECK_FALSE(parse_http_url("http://user:pw@localhost/x", &why));
  CHECK(why ==
        "URL 'http://user:pw@localhost/x' carries user information (user@host); credentials do "
        "not belong in a webhook URL");
  CHECK_FALSE(parse_http_url("localhost/x", &why));
  CHECK(why == "URL 'localhost/x' is not absolute (scheme://host/...)");
  CHECK_FALSE(parse_http_url("http://localhost:70000/", &why));
  CHECK(why == "URL 'http://localhost:70000/' has an invalid port '70000'");
  CHECK_FALSE(parse_http_url("http://localhost:0/", &why));
  CHECK_FALSE(parse_http_url("http://localhost:8a/", &why));
  CHECK_FALSE(parse_http_url("http:///x", &why));
  CHECK(why == "URL 'http:///x' has no valid host");
  CHECK_FALSE(parse_http_url("http://[::1/x", &why));
  CHECK(why == "URL 'http://[::1/x' has a malformed IPv6 host");
  CHECK_FALSE(parse_http_url("http://[::1]x/", &why));
  CHECK_FALSE(parse_http_url("http://local host/", &why));
  CHECK(why == "URL 'http://local host/' contains spaces or control characters");
  CHECK_FALSE(parse_http_url("", &why));
  CHECK(why == "the URL is empty");
}

TEST_CASE("a site without a port permits any port of its host", "[webhooks][remote_sites]") {
  auto sites = default_sites();
  CHECK(sites.check("http://localhost:1234/hook").permitted);
  CHECK(sites.check("http://LOCALHOST/hook").permitted);
  CHECK(sites.check("http://127.0.0.1:65535/").permitted);
  CHECK(sites.check("http://127.0.0.1").permitted);
  CHECK(sites.check("http://localhost").reason.empty());
}

TEST_CASE("a foreign host is refused with the permitted list", "[webhooks][remote_sites]") {
  auto v = default_sites().check("https://Example.com/hook");
  CHECK_FALSE(v.permitted);
  CHECK(v.reason ==
        "host example.com is not a permitted remote site; permitted: http://localhost, "
        "http://127.0.0.1");
}

TEST_CASE("scheme must match the site's", "[webhooks][remote_sites]") {
  auto v = default_sites().check("https://localhost:8443/hook");
  CHECK_FALSE(v.permitted);
  CHECK(v.reason ==
        "URL https://localhost:8443/hook is not within a permitted remote site (scheme https "
        "differs from http://localhost); permitted: http://localhost, http://127.0.0.1");
}

TEST_CASE("a site with a port permits only that port, defaults included",
          "[webhooks][remote_sites]") {
  RemoteSites sites({{"Api", "https://api.example.com:443", true},
                     {"Plain", "http://plain.example.com:80", true},
                     {"Odd", "http://odd.example.com:8080", true}});
  CHECK(sites.check("https://api.example.com/x").permitted);
  CHECK(sites.check("https://api.example.com:443/x").permitted);
  CHECK(sites.check("http://plain.example.com/x").permitted);
  CHECK(sites.check("http://odd.example.com:8080/x").permitted);
  auto v = sites.check("http://odd.example.com/x");
  CHECK_FALSE(v.permitted);
  CHECK(v.reason ==
        "URL http://odd.example.com/x is not within a permitted remote site (port 80 differs "
        "from http://odd.example.com:8080); permitted: https://api.example.com:443, "
        "http://plain.example.com:80, http://odd.example.com:8080");
  CHECK_FALSE(sites.check("https://api.example.com:8443/x").permitted);
}

TEST_CASE("a site with a path permits only URLs under it", "[webhooks][remote_sites]") {
  RemoteSites sites({{"Hooks", "https://example.com/hooks/", true}});
  CHECK(sites.check("https://example.com/hooks").permitted);
  CHECK(sites.check("https://example.com/hooks/pi?x=1").permitted);
  CHECK_FALSE(sites.check("https://example.com/hooksx").permitted);
  auto v = sites.check("https://example.com/other");
  CHECK_FALSE(v.permitted);
  CHECK(v.reason ==
        "URL https://example.com/other is not within a permitted remote site (path /other is not "
        "under https://example.com/hooks/); permitted: https://example.com/hooks/");
}

TEST_CASE("IPv6 literal sites match their literal only", "[webhooks][remote_sites]") {
  RemoteSites sites({{"V6", "http://[::1]", true}});
  CHECK(sites.check("http://[::1]:8080/x").permitted);
  CHECK_FALSE(sites.check("http://127.0.0.1:8080/x").permitted);
  CHECK_FALSE(sites.check("http://[::2]/x").permitted);
}

TEST_CASE("inactive sites permit nothing", "[webhooks][remote_sites]") {
  RemoteSites sites({{"Old", "http://old.example.com", false}});
  auto v = sites.check("http://old.example.com/x");
  CHECK_FALSE(v.permitted);
  CHECK(v.reason ==
        "remote site Old (http://old.example.com) is inactive; permitted: none (add one under "
        "remote_sites in the fixture)");
}

TEST_CASE("userinfo and other schemes are refused even on permitted hosts",
          "[webhooks][remote_sites]") {
  auto sites = default_sites();
  auto v = sites.check("http://admin@localhost/x");
  CHECK_FALSE(v.permitted);
  CHECK(v.reason ==
        "URL 'http://admin@localhost/x' carries user information (user@host); credentials do not "
        "belong in a webhook URL; permitted: http://localhost, http://127.0.0.1");
  CHECK_FALSE(sites.check("file://localhost/etc/passwd").permitted);
  CHECK_FALSE(sites.check("ws://localhost/x").permitted);
}

TEST_CASE("dot segments never pass a site's path prefix", "[webhooks][remote_sites]") {
  RemoteSites sites({{"Only", "http://localhost:9/only", true}});
  CHECK(sites.check("http://localhost:9/only/x").permitted);
  CHECK(sites.check("HTTP://LOCALHOST:9/only/x").permitted);        // scheme and host: any case
  CHECK(sites.check("http://localhost:9/only/x..y/.z").permitted);  // not dot segments
  for (const char* url : {"http://localhost:9/only/../x", "http://localhost:9/only/./..",
                          "http://localhost:9/only/..", "http://localhost:9/only/%2e%2E/x",
                          "http://localhost:9/only/.%2e/x", "http://localhost:9/only\\..\\x",
                          "http://localhost:9/only/../only/x?q=/../"}) {
    INFO(url);
    auto v = sites.check(url);
    CHECK_FALSE(v.permitted);
    CHECK(v.reason.find("'.' or '..' path segment") != std::string::npos);
  }
}
