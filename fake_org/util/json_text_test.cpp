#include "json_text.h"

#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace fake_org::text {

namespace {

nlohmann::json random_tree(std::mt19937& random, int depth) {
  static const std::vector<std::string> texts = {"",
                                                 "a",
                                                 "CreditCard",
                                                 "https://shop.example/ok?x=1&y=2",
                                                 "with \"quote\"",
                                                 "back\\slash",
                                                 "line\nbreak",
                                                 "tab\t",
                                                 "\x01",
                                                 "Jos\xC3\xA9",
                                                 "\xFF not UTF-8",
                                                 "del\x7F",
                                                 "~ } { ] ["};
  std::uniform_int_distribution<int> kind(0, depth > 3 ? 6 : 8);
  std::uniform_int_distribution<size_t> text(0, texts.size() - 1), count(0, 4);
  switch (kind(random)) {
    case 0:
      return nullptr;
    case 1:
      return random() % 2 == 0;
    case 2:
      return static_cast<int64_t>(random()) - (int64_t{1} << 31);
    case 3:
      return static_cast<uint64_t>(random()) << 32 | random();
    case 4: {
      const double values[] = {5.0, 0.1, -2.5e-300, 1e21, 123456.789, -0.0};
      return values[random() % 6];
    }
    case 5:
    case 6:
      return texts[text(random)];
    case 7: {
      nlohmann::json o = nlohmann::json::object();
      for (size_t n = count(random); n > 0; --n)
        o[texts[text(random)]] = random_tree(random, depth + 1);
      return o;
    }
    default: {
      nlohmann::json a = nlohmann::json::array();
      for (size_t n = count(random); n > 0; --n) a.push_back(random_tree(random, depth + 1));
      return a;
    }
  }
}

std::string nlohmann_text(const nlohmann::json& j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

TEST_CASE("json_text writes what nlohmann's dump writes", "[json]") {
  const nlohmann::json fixed = {
      {"Id", "pi_3shx8wfpfsi10d7d4vairdmw"},
      {"PaymentMethod", {{"Name", "CreditCard"}, {"Processor", "Stripe"}}},
      {"Amount", 5.0},
      {"Count", -3},
      {"Big", 18446744073709551615u},
      {"Flags", {true, false, nullptr}},
      {"Empty", nlohmann::json::object()},
      {"None", nlohmann::json::array()},
  };
  CHECK(json_text(fixed) == nlohmann_text(fixed));
  CHECK(json_text(fixed) ==
        R"({"Amount":5.0,"Big":18446744073709551615,"Count":-3,"Empty":{},"Flags":[true,false,)"
        R"(null],"Id":"pi_3shx8wfpfsi10d7d4vairdmw","None":[],"PaymentMethod":{"Name":)"
        R"("CreditCard","Processor":"Stripe"}})");
  nlohmann::ordered_json ordered = {{"z", 1}, {"a", "x"}};
  CHECK(json_text(ordered) == R"({"z":1,"a":"x"})");
  CHECK(json_text(fixed, 2) == nlohmann_text(fixed, 2));

  std::mt19937 random(20261128);
  for (int i = 0; i < 5000; ++i) {
    const nlohmann::json tree = random_tree(random, 0);
    INFO(nlohmann_text(tree));
    REQUIRE(json_text(tree) == nlohmann_text(tree));
  }
}

}  // namespace fake_org::text
