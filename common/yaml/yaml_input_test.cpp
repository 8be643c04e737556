// The guarded YAML reader: every hostile text ends in an error with a place,
// never a hang, a throw or a signal.
#include <catch2/catch.hpp>

#include "yaml/yaml_input.h"

using common::first_invalid_utf8;
using common::load_yaml_document;
using common::plain_yaml_scalar;

TEST_CASE("yaml input: a file of one comma is a syntax error at its place, not a hang") {
  // yaml-cpp 0.7's LoadAll never returns on this text.
  auto doc = load_yaml_document(",\n");
  REQUIRE(doc.error);
  CHECK(doc.error->line == 1);
  CHECK(doc.error->column == 1);
  CHECK(doc.error->message.find("','") != std::string::npos);

  auto after_list = load_yaml_document("[a]\n,\n");
  REQUIRE(after_list.error);
  CHECK(after_list.error->line == 2);
}

TEST_CASE("yaml input: bytes that are not UTF-8 are refused with their line and column") {
  auto doc = load_yaml_document("name: ok\nvalue: ab\xff\n");
  REQUIRE(doc.error);
  CHECK(doc.error->line == 2);
  CHECK(doc.error->column == 10);
  CHECK(doc.error->message.find("0xFF") != std::string::npos);
  // A character cut short at the end of the text, an overlong form, a surrogate.
  CHECK(first_invalid_utf8("caf\xc3") == 3);
  CHECK(first_invalid_utf8("\xc0\xaf") == 0);
  CHECK(first_invalid_utf8("\xed\xa0\x80") == 0);
  CHECK(first_invalid_utf8("\xf4\x90\x80\x80") == 0);
  CHECK(first_invalid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xb6") == std::string::npos);
}

TEST_CASE("yaml input: a second document is refused where it starts") {
  auto doc = load_yaml_document("a: 1\n---\nb: 2\n");
  REQUIRE(doc.error);
  CHECK(doc.error->line == 3);
  CHECK(doc.error->message.find("second YAML document") != std::string::npos);
}

TEST_CASE("yaml input: syntax errors and deep nesting come back as errors") {
  auto broken = load_yaml_document("a: [1, 2\n");
  REQUIRE(broken.error);
  CHECK(broken.error->line >= 1);
  auto deep = load_yaml_document(std::string(20000, '[') + std::string(20000, ']'));
  CHECK(deep.error);
  auto dashes = std::string();
  for (int i = 0; i < 20000; ++i) dashes += "- ";
  CHECK(load_yaml_document(dashes + "x\n").error);
}

TEST_CASE("yaml input: a good document and empty text read as expected") {
  auto doc = load_yaml_document("name: caf\xc3\xa9\nlist: [1, 2]\n");
  REQUIRE_FALSE(doc.error);
  CHECK(doc.root["name"].Scalar() == "caf\xc3\xa9");
  CHECK(doc.root["list"].size() == 2);
  auto empty = load_yaml_document("");
  REQUIRE_FALSE(empty.error);
  CHECK(empty.root.IsNull());
}

TEST_CASE("yaml input: plain scalars by the core schema, numbers no double holds are refused") {
  CHECK(*plain_yaml_scalar("12", false) == 12);
  CHECK(*plain_yaml_scalar("-3", false) == -3);
  CHECK(plain_yaml_scalar("18446744073709551615", false)->is_number_unsigned());
  CHECK(plain_yaml_scalar("123456789012345678901234", false)->is_number_float());
  CHECK(*plain_yaml_scalar("2.5", false) == 2.5);
  CHECK(*plain_yaml_scalar("true", false) == true);
  CHECK(plain_yaml_scalar("~", false)->is_null());
  CHECK(*plain_yaml_scalar("010", true) == "010");
  CHECK(*plain_yaml_scalar("010", false) == 10);
  CHECK(*plain_yaml_scalar("1e-400", false) == 0.0);  // underflow reads as zero
  CHECK_FALSE(plain_yaml_scalar("1e309", false));
  CHECK_FALSE(plain_yaml_scalar("-1e309", true));
  CHECK(*plain_yaml_scalar("1e309x", false) == "1e309x");
}
