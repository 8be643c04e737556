// The query string as httplib 0.11 reads it: every string below, and a
// hundred thousand made of the characters its parse treats apart, must give
// the very params httplib::detail::parse_query_text gives.
#include "query_text.h"

#include <catch2/catch.hpp>
#include <random>
#include <string>

using namespace fake_org;

namespace {

httplib::Params httplib_params(const std::string& query) {
  httplib::Params params;
  httplib::detail::parse_query_text(query, params);
  return params;
}

httplib::Params own_params(const std::string& query) {
  httplib::Params params;
  net::parse_query_text(query, params);
  return params;
}

}  // namespace

TEST_CASE("a query string gives the params httplib's parse gives", "[net][plain]") {
  const char* queries[] = {
      "",
      "q=SELECT+Id+FROM+Contact",
      "q=SELECT%20Id%20FROM%20Contact%20WHERE%20Email%20%3D%20%27a%40b.org%27",
      "a=1&a=1&a=2",
      "a=1&&b=2&",
      "=x&y=",
      "a=b=c",
      "a==b",
      " a = 1 &\tb\t=\t2 ",
      "%u00e9=%u20AC&s=%uD800&bad=%u12&h=%zz&end=%",
      "%41%4a%4A=%2",
      "only",
      "k=v+w%2Bx",
      "a%3Db=c%26d",
  };
  for (const char* q : queries) {
    INFO(q);
    CHECK(own_params(q) == httplib_params(q));
  }
  std::string many;
  for (int i = 0; i < 40; ++i)
    many += "k" + std::to_string(i % 25) + "=" + std::to_string(i % 3) + "&";
  CHECK(own_params(many) == httplib_params(many));
}

TEST_CASE("random query strings give the params httplib's parse gives", "[net][plain]") {
  std::mt19937 rng(20261204);
  const std::string alphabet = "ab=&%+ \tu02AFfzD8\x01\xc3\xa9";
  std::uniform_int_distribution<size_t> length(0, 40), pick(0, alphabet.size() - 1);
  for (int i = 0; i < 100000; ++i) {
    std::string q(length(rng), ' ');
    for (char& c : q) c = alphabet[pick(rng)];
    auto own = own_params(q);
    auto theirs = httplib_params(q);
    if (own != theirs) FAIL_CHECK("query string differs: [" << q << "]");
  }
}
