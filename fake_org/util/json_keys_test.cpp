#include "json_keys.h"

#include <catch2/catch.hpp>

namespace fake_org::http {

TEST_CASE("the repeated-key parse builds the tree nlohmann's parser builds", "[json]") {
  const char* texts[] = {
      R"({})",
      R"([])",
      R"("text")",
      R"(-12)",
      R"(18446744073709551615)",
      R"(1.5e3)",
      R"({"a":[1,[2,{"b":null}],{"c":true,"d":false}],"e":{"f":{"g":"\u00e9\ud83d\ude00"}}})",
      R"([{"x":1},{"x":2},[[],{}]])",
      R"({"OneTime":{"Amount":5.25},"Payer":{"Contact":{"CrmFields":{"LastName":"L"}}}})",
  };
  for (const char* text : texts) {
    RepeatedKeyFinder finder;
    CHECK(finder.parse(text) == nlohmann::json::parse(text));
    CHECK_FALSE(finder.found());
  }
}

TEST_CASE("the repeated-key parse names the first repeated key and its object", "[json]") {
  RepeatedKeyFinder top;
  auto body = top.parse(R"({"a":1,"b":2,"a":3})");
  CHECK(top.found());
  CHECK(top.key() == "a");
  CHECK(top.where().empty());
  CHECK(body == nlohmann::json::parse(R"({"a":3,"b":2})"));  // the last value stays, as before

  RepeatedKeyFinder nested;
  nested.parse(
      R"({"Payer":{"Contact":{"CrmFields":{"Email":"x","Email":"y"}}},"Z":{"k":1,"k":2}})");
  CHECK(nested.key() == "Email");
  CHECK(nested.where() == "Payer.Contact.CrmFields");

  RepeatedKeyFinder in_array;
  in_array.parse(R"({"Items":[{"Id":1},{"Id":2,"Id":3}]})");
  CHECK(in_array.key() == "Id");
  CHECK(in_array.where() == "Items");  // the array's name, not the last key read

  RepeatedKeyFinder deep;
  deep.parse(R"({"A":{"B":[[{"x":1}],[{"y":1,"y":2}]]}})");
  CHECK(deep.key() == "y");
  CHECK(deep.where() == "A.B");
}

TEST_CASE("the repeated-key parse throws what nlohmann's parser throws", "[json]") {
  CHECK_THROWS_AS(RepeatedKeyFinder().parse(R"({"a":)"), nlohmann::json::parse_error);
  CHECK_THROWS_AS(RepeatedKeyFinder().parse(R"({"a":1} x)"), nlohmann::json::parse_error);
  CHECK_THROWS_AS(RepeatedKeyFinder().parse(""), nlohmann::json::parse_error);
  CHECK_THROWS_AS(RepeatedKeyFinder().parse(R"({"a":1e400})"), nlohmann::json::out_of_range);
}

}  // namespace fake_org::http
