#include "org_config.h"

#include <catch2/catch.hpp>

using namespace fake_org;

namespace {

ObjectDef object_with(std::initializer_list<const char*> names) {
  ObjectDef def;
  def.api_name = "Thing__c";
  for (const char* n : names) {
    FieldDef f;
    f.name = n;
    def.fields.push_back(f);
  }
  return def;
}

}  // namespace

TEST_CASE("ObjectDef::field finds a field by its name in any case", "[org_config]") {
  ObjectDef def = object_with({"Id", "Name", "cpm__Amount__c", "cpm__Origin__c", "Email"});
  for (bool indexed : {false, true}) {
    CAPTURE(indexed);
    if (indexed) def.index_fields();
    REQUIRE(def.field("cpm__amount__C") != nullptr);
    CHECK(def.field("cpm__amount__C")->name == "cpm__Amount__c");
    CHECK(def.field("EMAIL") == &def.fields[4]);
    CHECK(def.field("Id") == &def.fields[0]);
    CHECK(def.field("Emai") == nullptr);
    CHECK(def.field("") == nullptr);
    CHECK(def.field("cpm__Amount__c ") == nullptr);
  }
}

TEST_CASE("ObjectDef::field sees fields added after the index was built", "[org_config]") {
  ObjectDef def = object_with({"Id", "Name"});
  def.index_fields();
  FieldDef late;
  late.name = "Skills__c";
  def.fields.push_back(late);
  REQUIRE(def.field("skills__c") != nullptr);
  CHECK(def.field("skills__c")->name == "Skills__c");
  def.index_fields();
  CHECK(def.field("SKILLS__C") == &def.fields[2]);
  CHECK(def.field("Name") == &def.fields[1]);
}

TEST_CASE("ObjectDef::field keeps every one of many fields apart", "[org_config]") {
  ObjectDef def;
  for (int i = 0; i < 300; ++i) {
    FieldDef f;
    f.name = "Field" + std::to_string(i) + "__c";
    def.fields.push_back(f);
  }
  def.index_fields();
  for (int i = 0; i < 300; ++i) {
    const FieldDef* f = def.field("FIELD" + std::to_string(i) + "__C");
    REQUIRE(f != nullptr);
    CHECK(f == &def.fields[static_cast<size_t>(i)]);
  }
  CHECK(def.field("Field300__c") == nullptr);
}

TEST_CASE("A copied ObjectDef looks up its own fields", "[org_config]") {
  ObjectDef def = object_with({"Id", "Name", "Email"});
  def.index_fields();
  const ObjectDef copy = def;
  CHECK(copy.field("email") == &copy.fields[2]);
}
