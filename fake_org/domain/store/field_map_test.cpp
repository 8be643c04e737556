#include "field_map.h"
#include "field_values.h"

#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

using fake_org::FieldMap;
using fake_org::FieldNames;
using fake_org::FieldValue;
using fake_org::FieldValues;
using nlohmann::json;

TEST_CASE("a field map gives back every kind of value it was given", "[field_map]") {
  FieldMap m;
  m["Name"] = "Ada";
  m["Empty"] = "";
  m["Amount"] = 12.5;
  m["Count"] = 3;
  m["Big"] = uint64_t{18446744073709551615u};
  m["Active"] = true;
  m["Gone"] = false;
  m["Cleared"] = nullptr;
  m["Tags"] = json::array({"a", 1});
  CHECK(m.size() == 9);
  CHECK(m.find("Name")->str() == "Ada");
  CHECK(m.find("Empty")->is_string());
  CHECK(m.find("Amount")->get<double>() == 12.5);
  CHECK(m.find("Amount")->is_number_float());
  CHECK(m.find("Count")->get<int>() == 3);
  CHECK(m.find("Count")->is_number_integer());
  CHECK(m.find("Big")->json() == json(uint64_t{18446744073709551615u}));
  CHECK(m.find("Active")->get<bool>());
  CHECK_FALSE(m.find("Gone")->get<bool>());
  CHECK(m.find("Cleared")->is_null());
  CHECK(m.find("Tags")->is_array());
  CHECK(m.find("Tags")->json() == json::array({"a", 1}));
  CHECK_FALSE(m.find("Missing"));
  CHECK(m.value("Missing", json(7)) == 7);
  CHECK(m.value("Cleared", json("x")) == "x");
}

TEST_CASE("a field map iterates and dumps in name order, as a json object", "[field_map]") {
  json j = {{"Zeta", 1}, {"Alpha", "a"}, {"Mid", true}, {"Email", nullptr}, {"Amount", 2.25}};
  FieldMap m = j;
  CHECK(m.to_json() == j);
  CHECK(m.dump() == j.dump());
  std::vector<std::string> names;
  for (const auto& [name, value] : m.items()) names.emplace_back(name);
  CHECK(names == std::vector<std::string>{"Alpha", "Amount", "Email", "Mid", "Zeta"});
  CHECK(m == j);
  CHECK(json(m) == j);
}

TEST_CASE("replacing and erasing leave the other fields as they were", "[field_map]") {
  FieldMap m = json{{"A", "one"}, {"B", "two"}, {"C", 3}};
  m["B"] = "a much longer value than before";
  m["A"] = 1;
  CHECK(m.erase("C") == 1);
  CHECK(m.erase("C") == 0);
  CHECK(m == json{{"A", 1}, {"B", "a much longer value than before"}});
  m["B"] = m["A"];  // a value copied within the map, which may move as it grows
  CHECK(m == json{{"A", 1}, {"B", 1}});
  m.set("A", m.find("B")->str());
  CHECK(m["A"] == "");
}

TEST_CASE("a copy or a shrink keeps only the live values", "[field_map]") {
  FieldMap m;
  for (int i = 0; i < 50; ++i) m["Status"] = "status number " + std::to_string(i);
  m["Other"] = "x";
  const size_t grown = m.heap_bytes();
  FieldMap copy = m;
  CHECK(copy == m);
  CHECK(copy.heap_bytes() < grown);
  m.shrink();
  CHECK(m.heap_bytes() == copy.heap_bytes());
  CHECK(m.find("Status")->str() == "status number 49");
  FieldMap moved = std::move(copy);
  CHECK(moved == m);
  CHECK(copy.empty());  // NOLINT: a moved-from map is empty
}

TEST_CASE("a shrink copies a map a replaced value left a gap in, however small", "[field_map]") {
  FieldMap m;
  m.set("A", std::string(200, 'a'));
  m.set("N", int64_t{1});
  m.set("N", int64_t{2});  // the first number's 8 bytes become a gap
  m.shrink();
  const FieldMap copy = m;  // a copy keeps live values only
  CHECK(copy == m);
  CHECK(m.heap_bytes() == copy.heap_bytes());
  CHECK(m.find("N")->integer() == 2);
}

TEST_CASE("numbers compare as json compares them", "[field_map]") {
  FieldMap m = json{{"I", 1}, {"D", 1.0}, {"S", "1"}};
  CHECK(m["I"] == m["D"]);
  CHECK(m["I"] == 1);
  CHECK(m["D"] == 1);
  CHECK(m["S"] != 1);
  CHECK(m["S"] == "1");
  CHECK(m["Missing"].is_null());
}

TEST_CASE("field names interned from many threads get one number each", "[field_map]") {
  std::vector<std::thread> threads;
  std::vector<std::vector<uint32_t>> got(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &got] {
      for (int i = 0; i < 500; ++i)
        got[t].push_back(FieldNames::intern("Field_" + std::to_string(i) + "__c"));
    });
  for (auto& th : threads) th.join();
  for (int t = 1; t < 4; ++t) CHECK(got[t] == got[0]);
  CHECK(FieldNames::name(got[0][17]) == "Field_17__c");
}

TEST_CASE("a field map reads back the JSON text it writes", "[field_map]") {
  json j = {{"Name", "Zo\u00eb \"quoted\" \\ \n tab\t \U0001F600"},
            {"Neg", -42},
            {"Pos", 42},
            {"Huge", 1e300},
            {"Half", 0.5},
            {"Yes", true},
            {"No", false},
            {"Nil", nullptr},
            {"List", json::array({1, "two", json::object({{"k", "v"}})})}};
  FieldMap m = j;
  FieldMap back;
  REQUIRE(FieldMap::parse(m.dump(), back));
  CHECK(back == m);
  CHECK(back.dump() == j.dump());
  // The kinds nlohmann's parser gives, so a restart changes nothing.
  CHECK(back.find("Pos")->json() == json::parse("42"));
  CHECK(back.find("Pos")->json().is_number_unsigned());
  CHECK(back.find("Neg")->json().is_number_integer());

  FieldMap flat;
  REQUIRE(FieldMap::parse(R"( { "A" : "\u00e9\ud83d\ude00" , "B":1.5e2 } )", flat));
  CHECK(flat.find("A")->str() == "\u00e9\U0001F600");
  CHECK(flat.find("B")->get<double>() == 150.0);

  FieldMap bad;
  CHECK_FALSE(FieldMap::parse("[1,2]", bad));
  CHECK_FALSE(FieldMap::parse(R"({"A": "unterminated)", bad));
  CHECK_FALSE(FieldMap::parse(R"({"A": 1} trailing)", bad));
  CHECK_FALSE(FieldMap::parse(R"({"A": "\ud800"})", bad));
  CHECK_FALSE(FieldMap::parse("", bad));
}

TEST_CASE("a saved text's escapes and control characters are found at any offset", "[field_map]") {
  // The plain run before an escape is found sixteen bytes at a time: each
  // kind of stop at every place in and around one step, in a value and in a
  // name, reads as nlohmann reads it.
  for (const std::string stop : {"\\\"", "\\\\", "\\n", "\\u00e9", "\\ud83d\\ude00"})
    for (size_t at = 0; at <= 40; ++at) {
      const std::string text = std::string(at, 'x') + stop + std::string(40 - at, 'y');
      const std::string saved = "{\"N" + text + "\":\"" + text + "\",\"Z\":1}";
      FieldMap back;
      REQUIRE(FieldMap::parse(saved, back));
      CHECK(back == FieldMap(json::parse(saved)));
    }
  for (size_t at = 0; at <= 40; ++at) {
    std::string raw = "{\"A\":\"" + std::string(40, 'x') + "\"}";
    raw[6 + at] = '\x01';  // a control character: no JSON
    FieldMap bad;
    CHECK_FALSE(FieldMap::parse(raw, bad));
  }
}

TEST_CASE("a saved object is kept in a block of the size it uses", "[field_map]") {
  // Read once, trimmed to its bytes; a name met twice keeps its last value
  // (as nlohmann's parser) and leaves no gap of the first behind.
  FieldMap twice, once, empty;
  REQUIRE(FieldMap::parse(R"({"A":"a first value","A":"second","B":1})", twice));
  REQUIRE(FieldMap::parse(R"({"A":"second","B":1})", once));
  CHECK(twice == once);
  CHECK(twice.heap_bytes() == once.heap_bytes());
  CHECK(once.heap_bytes() == FieldMap(once).heap_bytes());
  REQUIRE(FieldMap::parse("{ }", empty));
  CHECK(empty.empty());
  CHECK(empty.heap_bytes() == 0);
}

TEST_CASE("texts of every length keep their bytes, whatever their length takes", "[field_map]") {
  // A length under 128 takes one byte before the text, under 16,384 two, and
  // so on: each boundary, read back, copied, replaced and shrunk.
  FieldMap m;
  const std::vector<size_t> lengths{0, 1, 127, 128, 16383, 16384, (size_t{1} << 21) + 5};
  for (size_t n : lengths)
    m.set("F" + std::to_string(n), std::string(n, static_cast<char>('a' + n % 26)));
  m.set("Z", nlohmann::json::array({1, "two"}));
  auto check = [&](const FieldMap& f) {
    for (size_t n : lengths) {
      auto v = f.find("F" + std::to_string(n));
      REQUIRE(v);
      CHECK(v->str() == std::string(n, static_cast<char>('a' + n % 26)));
    }
    CHECK(f.find("Z")->json() == nlohmann::json::array({1, "two"}));
  };
  check(m);
  FieldMap copy = m;
  check(copy);
  m.set("F128", std::string(200, 'q'));  // longer: the old bytes become a gap
  m.set("F128", std::string(128, static_cast<char>('a' + 128 % 26)));
  m.shrink();
  check(m);
  CHECK(m.heap_bytes() == copy.heap_bytes());  // nothing of the gap is left
  FieldMap back;
  REQUIRE(FieldMap::parse(m.dump(), back));
  check(back);
}

TEST_CASE("a small map takes 4 bytes a field entry", "[field_map]") {
  FieldMap m;
  const std::string unshared(FieldValues::kLongest + 1, 'x');  // too long to keep once
  m.set("A", unshared);
  m.set("B", int64_t{1});
  m.set("C", nullptr);
  m.shrink();
  // Three entries of 4 bytes; the text behind a 2-byte length; 8 bytes of integer.
  CHECK(m.heap_bytes() == 3 * 4 + 2 + unshared.size() + 8);
}

TEST_CASE("a field's repeated short texts are kept once, a byte in each record", "[field_map]") {
  FieldMap a, b;
  a.set("SharedStatus__c", "Outstanding");
  b.set("SharedStatus__c", "Outstanding");
  a.shrink();
  CHECK(a.heap_bytes() == 4 + 1);  // the entry and the text's number
  CHECK(a == b);
  CHECK(a.find("SharedStatus__c")->str() == "Outstanding");
  CHECK(a.find("SharedStatus__c")->str().data() == b.find("SharedStatus__c")->str().data());
  CHECK(a.dump() == R"({"SharedStatus__c":"Outstanding"})");
  FieldMap back;
  REQUIRE(FieldMap::parse(a.dump(), back));
  CHECK(back == a);
  CHECK(back.heap_bytes() == a.heap_bytes());
}

TEST_CASE("a field keeps its first 255 texts once, and later ones in the record", "[field_map]") {
  std::vector<FieldMap> maps(FieldValues::kPerField + 10);
  for (size_t i = 0; i < maps.size(); ++i) {
    maps[i].set("UniqueEach__c", "value " + std::to_string(i));
    maps[i].shrink();
  }
  for (size_t i = 0; i < maps.size(); ++i) {
    const std::string text = "value " + std::to_string(i);
    CHECK(maps[i].find("UniqueEach__c")->str() == text);
    // Kept once: a byte; in the record: a length byte and the text.
    CHECK(maps[i].heap_bytes() == 4 + (i < FieldValues::kPerField ? 1 : 1 + text.size()));
  }
  // A text the field already keeps is still shared once the field is full.
  FieldMap again;
  again.set("UniqueEach__c", "value 3");
  again.shrink();
  CHECK(again.heap_bytes() == 4 + 1);
}

TEST_CASE("texts kept once from many threads get one number each", "[field_map]") {
  std::vector<std::thread> threads;
  std::vector<std::vector<FieldMap>> got(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &got] {
      for (int i = 0; i < 300; ++i) {
        FieldMap m;
        m.set("RacedStatus__c", "status " + std::to_string(i % 200));
        m.set("RacedOther__c", "thread " + std::to_string(t) + " " + std::to_string(i));
        got[t].push_back(std::move(m));
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t)
    for (int i = 0; i < 300; ++i) {
      CHECK(got[t][i].find("RacedStatus__c")->str() == "status " + std::to_string(i % 200));
      CHECK(got[t][i].find("RacedStatus__c")->str().data() ==
            got[0][i].find("RacedStatus__c")->str().data());
      CHECK(got[t][i].find("RacedOther__c")->str() ==
            "thread " + std::to_string(t) + " " + std::to_string(i));
    }
}

TEST_CASE("an unsigned number past int64 widens a small map", "[field_map]") {
  FieldMap m;
  m.set("A", "x");
  m.set("Huge", uint64_t{18446744073709551615u});
  m.set("Z", int64_t{-1});
  CHECK(m.find("Huge")->json() == json(uint64_t{18446744073709551615u}));
  CHECK(m.find("Huge")->is_number_integer());
  CHECK(m.find("A")->str() == "x");
  FieldMap copy = m;
  CHECK(copy == m);
  CHECK(copy.find("Huge")->json() == json(uint64_t{18446744073709551615u}));
  copy.erase("Huge");
  copy.shrink();
  CHECK(copy.find("Z")->get<int64_t>() == -1);
}

TEST_CASE("a map past 8 KB of values or 65,536 names keeps every field", "[field_map]") {
  FieldMap m;
  for (int i = 0; i < 10; ++i) m.set("N" + std::to_string(i), "v" + std::to_string(i));
  FieldMap small = m;
  auto check = [](const FieldMap& f) {
    for (int i = 0; i < 10; ++i) CHECK(f["N" + std::to_string(i)].str() == "v" + std::to_string(i));
  };
  // A value starting past the first 8 KB: the entries become 8 bytes each.
  m.set("Big", std::string(9000, 'b'));
  m.set("M", "after");
  m.set("N5", "changed");
  CHECK(std::as_const(m)["Big"].str() == std::string(9000, 'b'));
  CHECK(std::as_const(m)["M"].str() == "after");
  CHECK(std::as_const(m)["N5"].str() == "changed");
  m.set("N5", "v5");
  check(m);
  // Without the big value, a copy is as small as one that never had it.
  m.erase("Big");
  m.erase("M");
  m.shrink();
  check(m);
  CHECK(m.heap_bytes() == small.heap_bytes());
  CHECK(m == small);

  // A name numbered past what 16 bits hold.
  std::string late;
  for (int i = 0; FieldNames::intern(late = "wide_name_" + std::to_string(i)) < (1u << 16); ++i) {
  }
  FieldMap named = small;
  named.set(late, "late");
  check(named);
  CHECK(std::as_const(named)[late].str() == "late");
  FieldMap copied = named;
  CHECK(copied == named);
  CHECK(copied.heap_bytes() > small.heap_bytes() + 10 * 4);  // its entries are 8 bytes
}

TEST_CASE("two fields holding one value keep its bytes once", "[field_map]") {
  // Longer than any text a field keeps once, so it is stored in the map;
  // nothing in it packs (decision 227 packs the 24 characters after "pi_").
  const std::string id = "PI-" + std::string(130, 'k');
  FieldMap m;
  m.set("cpm__Status__c", "New");
  m.set("cpm__Payment_Intent_Id__c", id);
  m.set_same("Name", "cpm__Payment_Intent_Id__c");     // an entry before the one it shares
  m.set_same("zeta__c", "cpm__Payment_Intent_Id__c");  // and one after
  m.set_same("Missing__c", "Nowhere__c");              // nothing to share: nothing stored
  CHECK_FALSE(m.contains("Missing__c"));
  m.shrink();
  CHECK(m.find("Name")->str() == id);
  CHECK(m.find("zeta__c")->str() == id);
  CHECK(m.find("cpm__Payment_Intent_Id__c")->str() == id);
  // The id once: a map storing it three times holds it, with its two-byte
  // length, twice more.
  FieldMap thrice;
  for (const char* name : {"cpm__Payment_Intent_Id__c", "Name", "zeta__c"}) thrice.set(name, id);
  thrice.set("cpm__Status__c", "New");
  thrice.shrink();
  CHECK(m.heap_bytes() + 2 * (2 + id.size()) == thrice.heap_bytes());
  // A copy, and a read back from JSON (which stores each value), agree.
  FieldMap copy = m;
  CHECK(copy == m);
  CHECK(copy.heap_bytes() == m.heap_bytes());
  FieldMap back;
  REQUIRE(FieldMap::parse(m.dump(), back));
  CHECK(back == m);
  // Setting one stores its own value; the others keep theirs.
  m.set("cpm__Payment_Intent_Id__c", "pi_other");
  m.erase("zeta__c");
  m.shrink();
  CHECK(m.find("Name")->str() == id);
  CHECK(m.find("cpm__Payment_Intent_Id__c")->str() == "pi_other");
  CHECK_FALSE(m.contains("zeta__c"));
  m.set("Name", "Renamed");
  FieldMap after = m;
  CHECK(after.find("Name")->str() == "Renamed");
  CHECK(after.find("cpm__Payment_Intent_Id__c")->str() == "pi_other");
  // A text its field keeps once is a number among that field's texts: the
  // other field stores the text (its own number), never the number.
  FieldMap shared;
  shared.set("cpm__Status__c", "Matched");
  shared.set_same("Name", "cpm__Status__c");
  CHECK(shared.find("Name")->str() == "Matched");
  FieldMap shared_copy = shared;
  CHECK(shared_copy.find("Name")->str() == "Matched");
}
