#include "shapes.h"

#include <catch2/catch.hpp>

#include <functional>
#include <random>
#include <regex>
#include <string>
#include <vector>

namespace shapes = fake_org::shapes;

namespace {

// Every string over `alphabet` up to `max_len` characters.
std::vector<std::string> all_strings(const std::string& alphabet, size_t max_len) {
  std::vector<std::string> out{""};
  for (size_t begin = 0, len = 0; len < max_len; ++len) {
    const size_t end = out.size();
    for (size_t i = begin; i < end; ++i)
      for (char c : alphabet) out.push_back(out[i] + c);
    begin = end;
  }
  return out;
}

// The hand-written check agrees with the pattern it replaced on every string.
void agrees(const std::vector<std::string>& inputs, const std::regex& pattern,
            const std::function<bool(const std::string&)>& check) {
  for (const auto& s : inputs) {
    INFO("input: '" << s << "'");
    CHECK(check(s) == std::regex_match(s, pattern));
  }
}

// The fixture loader's URL check before it was written by hand: the
// pattern, then the range of the port the pattern matched. (That check
// looked for the port's colon itself: it let ":0" through after an IP
// literal and threw on a colon in the path.)
bool url_by_pattern(const std::string& s, bool query) {
  static const std::regex kUrl(
      "https?://([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*"
      "|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?(/[^\\s?#]*)?(\\?[^\\s#]*)?");
  if (!query && s.find('?') != std::string::npos) return false;
  std::smatch m;
  if (!std::regex_match(s, m, kUrl)) return false;
  if (!m[5].matched) return true;
  const long port = std::stol(m[5].str().substr(1));
  return port >= 1 && port <= 65535;
}

}  // namespace

TEST_CASE("api names and dotted paths match the patterns they replaced", "[shapes]") {
  const auto inputs = all_strings("aZ0_.-", 5);
  agrees(inputs, std::regex("[A-Za-z][A-Za-z0-9_]*"),
         [](const std::string& s) { return shapes::api_name(s); });
  agrees(inputs, std::regex("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*"),
         [](const std::string& s) { return shapes::dotted_path(s); });
  CHECK(shapes::api_name("cpm__GUID__c"));
  CHECK_FALSE(shapes::api_name("_x"));
  CHECK(shapes::dotted_path("Payer.Contact.Email"));
  CHECK_FALSE(shapes::dotted_path("Payer..Email"));
}

TEST_CASE("numbers match the patterns they replaced", "[shapes]") {
  const auto inputs = all_strings("09-+.x", 5);
  agrees(inputs, std::regex("[-+]?[0-9]{1,3}"),
         [](const std::string& s) { return shapes::whole_number(s, 3); });
  agrees(inputs, std::regex("[-+]?[0-9]+(\\.[0-9]+)?"),
         [](const std::string& s) { return shapes::decimal(s, true); });
  agrees(inputs, std::regex("-?[0-9]+(\\.[0-9]+)?"),
         [](const std::string& s) { return shapes::decimal(s, false); });
  CHECK(shapes::whole_number("-123456789012345", 15));
  CHECK_FALSE(shapes::whole_number("1234567890123456", 15));
}

TEST_CASE("absolute paths match the pattern they replaced", "[shapes]") {
  agrees(all_strings("/a.~-!", 5), std::regex("(/[A-Za-z0-9._~-]+)+"),
         [](const std::string& s) { return shapes::absolute_path(s); });
  CHECK(shapes::absolute_path("/services/apexrest/cpm/v2"));
}

TEST_CASE("http URLs match the pattern and port rule they replaced", "[shapes]") {
  std::vector<std::string> inputs = {"http://a",
                                     "https://shop.example/ok",
                                     "HTTP://a",
                                     "http://",
                                     "http://-a",
                                     "http://a-",
                                     "http://a-b.c",
                                     "http://a..b",
                                     "http://a.",
                                     "http://[::1]:8080/x",
                                     "http://[::1]",
                                     "http://[]",
                                     "http://[g]",
                                     "http://a:0",
                                     "http://a:65535",
                                     "http://a:65536",
                                     "http://a:",
                                     "http://a:123456",
                                     "http://a/b?c",
                                     "http://a/b?c?d",
                                     "http://a?c",
                                     "http://a/b#c",
                                     "http://a/b c",
                                     "http://a/\tb",
                                     "http://a:8080?x=1",
                                     "http://user@a",
                                     "ftp://a",
                                     "http://a:1:2",
                                     "http://[::1]:0",
                                     "http://a/b/../c",
                                     "https://x.example.org:443/p?q#f"};
  // And random joins of the parts URLs are made of.
  const std::vector<std::string> parts = {"http://", "https://", "a",     "b-c", ".", "-", ":",
                                          "80",      "0",        "99999", "/",   "p", "?", "q=1",
                                          "#",       " ",        "[",     "::1", "]", "@", "\t"};
  std::mt19937 rng(16);
  for (int i = 0; i < 4000; ++i) {
    std::string s = i % 2 ? "http://" : "";
    for (int n = std::uniform_int_distribution<int>(1, 6)(rng); n > 0; --n)
      s += parts[std::uniform_int_distribution<size_t>(0, parts.size() - 1)(rng)];
    inputs.push_back(s);
  }
  for (const auto& s : inputs)
    for (bool query : {false, true}) {
      INFO("input: '" << s << "', query allowed: " << query);
      CHECK(shapes::http_url(s, query) == url_by_pattern(s, query));
    }
}
