// The platform's email rule as a table: each address and whether it is one.
#include "email.h"

#include <catch2/catch.hpp>
#include <string>

using namespace fake_org;

TEST_CASE("email: the platform's rule, accepted and refused addresses", "[email]") {
  struct Row {
    std::string address;
    bool valid;
  };
  const Row rows[] = {
      {"grace.hopper@example.org", true},
      {"GRACE@Example.ORG", true},
      {"a@b.co", true},
      {"first+tag@mail.example.co.uk", true},
      {"o'brien@example.ie", true},
      {"!#$%&'*+/=?^_`{|}~-@example.org", true},
      {"user_name-1@sub-domain.example.org", true},
      {"a..a@test.jp", true},  // the platform takes ".." inside the local part
      {"a.@test.jp", true},    // and a '.' at its end
      {std::string(64, 'a') + "@example.org", true},
      {"1234@123.example.com", true},
      {"a@b", false},  // no '.' in the domain
      {"ada@localhost", false},
      {"nobody", false},
      {"", false},
      {"@example.org", false},
      {".a@test.jp", false},
      {"ada@@example.org", false},
      {"a@b@example.org", false},
      {"ada lovelace@example.org", false},
      {"ada@example.org ", false},
      {"ada@example.org\t", false},
      {"ada@", false},
      {"ada@.example.org", false},
      {"ada@example..org", false},
      {"ada@example.org.", false},
      {"ada@-example.org", false},
      {"ada@example-.org", false},
      {"ada@exa_mple.org", false},
      {"ada@example.123", false},
      {"ada@example.c", false},
      {"\"ada\"@example.org", false},
      {"ada(comment)@example.org", false},
      {"ada,lovelace@example.org", false},
      {"ada@[127.0.0.1]", false},
      {"jos\xC3\xA9@example.org", false},       // é: internationalised addresses are off
      {"\xF0\x9F\x98\x80@example.org", false},  // an emoji
      {"ada@ex\xC3\xA4mple.org", false},
      {std::string(65, 'a') + "@example.org", false},
  };
  for (const Row& row : rows) {
    INFO("'" << row.address << "'");
    CHECK(email::valid(row.address) == row.valid);
  }
}

TEST_CASE("email: the reason says what is wrong, in ASCII", "[email]") {
  CHECK(email::problem("nobody") == "has no '@'");
  CHECK(email::problem("a@b") == "has a domain without a '.' ('b')");
  CHECK(email::problem(".a@test.jp") == "starts with a '.'");
  CHECK(email::problem("\xF0\x9F\x98\x80@example.org") == "has a character outside ASCII");
  CHECK(email::problem("ada@example.123") ==
        "has a domain 'example.123' without a top-level domain such as .org");
  CHECK_FALSE(email::problem("grace@example.org"));
}
