#include "packed_text.h"

#include <optional>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "domain/core/ids.h"
#include "field_map.h"

using fake_org::FieldMap;
using fake_org::FieldNames;
namespace packed_text = fake_org::packed_text;

namespace {

std::string round_trip(const std::string& text) {
  std::string packed;
  if (!packed_text::pack(text, packed)) return text;
  return packed_text::unpack(packed);
}

}  // namespace

TEST_CASE("a request body packs to well under half and unpacks to the same bytes",
          "[packed_text]") {
  // The benchmark's body (nlohmann's dump) and the same body spaced as
  // Python's json.dumps writes it.
  const std::string compact =
      R"({"FailureURL":"https://shop.example/ko","OneTime":{"Amount":10},"Payer":)"
      R"({"AllowDeduplication":true,"Contact":{"CrmFields":{"Email":"donor1@example.org",)"
      R"("LastName":"Donor1"}}},"PaymentMethod":{"Name":"CreditCard"},)"
      R"("SuccessURL":"https://shop.example/ok"})";
  const std::string spaced =
      R"({"FailureURL": "https://shop.example/ko", "OneTime": {"Amount": 10}, "Payer": )"
      R"({"AllowDeduplication": true, "Contact": {"CrmFields": {"Email": "donor1@example.org", )"
      R"("LastName": "Donor1"}}}, "PaymentMethod": {"Name": "CreditCard"}, )"
      R"("SuccessURL": "https://shop.example/ok"})";
  for (const std::string& body : {compact, spaced}) {
    std::string packed;
    REQUIRE(packed_text::pack(body, packed));
    INFO(body);
    CHECK(packed.size() * 100 < body.size() * 40);
    CHECK(packed_text::unpack(packed) == body);
  }
}

TEST_CASE("a text holding a byte the codes use is not packed", "[packed_text]") {
  std::string packed;
  for (const std::string& text :
       {std::string("{\"Name\": \"a\x01\"}"), std::string("{\"Name\": \"\xC0\"}"),
        std::string("{\"Name\": \"\xFF\"}"), std::string("{\"Name\": \"\0\"}", 13)}) {
    CHECK_FALSE(packed_text::pack(text, packed));
  }
  // Tab, newline and carriage return are JSON's whitespace: packed.
  const std::string pretty = "{\n\t\"FirstName\": \"Ada\",\r\n\t\"LastName\": \"Lovelace\"\n}";
  REQUIRE(packed_text::pack(pretty, packed));
  CHECK(packed_text::unpack(packed) == pretty);
  // Nothing to gain: no dictionary word, or no quote or slash to find one by.
  CHECK_FALSE(packed_text::pack("\"zzzzzzzzzzzzzzzzzzzzzzzzzzzzz", packed));
  CHECK_FALSE(packed_text::pack("www.example.com www.example.com", packed));
  // https:// and .example take one byte, .com two.
  REQUIRE(packed_text::pack("https://shop.example.com/", packed));
  CHECK(packed.size() == 1 + 4 + 1 + 2 + 1);
  CHECK_FALSE(packed_text::pack("", packed));
}

TEST_CASE("any text comes back from packing whole", "[packed_text]") {
  // Random texts over the dictionary's own bytes, multi-byte UTF-8 and
  // every byte: packed or not, unpack(pack(t)) is t.
  const std::string alphabet =
      "\"{}[]:, "
      "\t\nNameAmountPayerContactCrmFieldshttps://.example.org@_cpm__c\xC3\xA9\xE2\x82\xAC";
  std::mt19937 random(7);
  for (int n = 0; n < 3000; ++n) {
    std::string text;
    const size_t length = random() % 200;
    for (size_t i = 0; i < length; ++i)
      text +=
          n % 10 == 0 ? static_cast<char>(random() % 256) : alphabet[random() % alphabet.size()];
    INFO(n);
    CHECK(round_trip(text) == text);
  }
}

// A request body long enough to be packed rather than kept once for its field.
const std::string kLongRequest =
    R"({"SuccessURL": "https://shop.example/ok", "Payer": {"Contact": {"CrmFields": )"
    R"({"LastName": "Lovelace", "Email": "ada@example.org"}}}, "OneTime": {"Amount": 10}})";

TEST_CASE("a field map keeps a long text packed and reads it back whole", "[packed_text]") {
  const std::string raw = kLongRequest;
  FieldMap m;
  m.set("Raw_Request_Packed__c", raw);
  m.set("Other__c", "short");
  m.shrink();
  CHECK(m.find("Raw_Request_Packed__c")->str() == raw);
  CHECK(m.find("Raw_Request_Packed__c")->is_string());
  CHECK(m.find("Raw_Request_Packed__c")->json() == raw);
  CHECK(m.heap_bytes() < raw.size() / 2 + 16);
  // A copy, a re-read from JSON and a replaced value keep the text.
  FieldMap copy = m;
  CHECK(copy == m);
  CHECK(copy.find("Raw_Request_Packed__c")->str() == raw);
  FieldMap back;
  REQUIRE(FieldMap::parse(m.dump(), back));
  CHECK(back == m);
  CHECK(back.heap_bytes() == m.heap_bytes());
  m.set("Raw_Request_Packed__c", raw + " ");
  m.shrink();
  CHECK(m.find("Raw_Request_Packed__c")->str() == raw + " ");
  // A value read from the map and stored under another name.
  m.set("Copy__c", *m.find("Raw_Request_Packed__c"));
  CHECK(m.find("Copy__c")->str() == raw + " ");
}

TEST_CASE("a text field is read as a view, a packed one unpacked into the caller's buffer",
          "[packed_text]") {
  const std::string raw = kLongRequest;
  FieldMap m;
  m.set("Text_Packed__c", raw);
  m.set("Text_Plain__c", "Lovelace");
  m.set("Text_Shared__c", "Outstanding");
  m.set("Number__c", 12.5);
  m.set("Null__c", nullptr);
  m.shrink();
  auto id = [](const char* name) { return FieldNames::intern(name); };
  std::string scratch = "left from before";
  auto packed = m.text_id(id("Text_Packed__c"), scratch);
  REQUIRE(packed);
  CHECK(*packed == raw);
  CHECK(packed->data() == scratch.data());  // unpacked into the buffer given
  const auto plain = m.text_id(id("Text_Plain__c"), scratch);
  REQUIRE(plain);
  CHECK(*plain == "Lovelace");
  CHECK(plain->data() == m.find("Text_Plain__c")->str().data());  // the map's own bytes
  CHECK(m.text_id(id("Text_Shared__c"), scratch) == std::optional<std::string_view>("Outstanding"));
  CHECK_FALSE(m.text_id(id("Number__c"), scratch));
  CHECK_FALSE(m.text_id(id("Null__c"), scratch));
  CHECK_FALSE(m.text_id(id("Absent_Field__c"), scratch));
}

TEST_CASE("instants and the fake's record ids pack as numbers", "[packed_text]") {
  const auto id18 = [](const std::string& id15) { return id15 + fake_org::record_id_suffix(id15); };
  std::string packed;
  // An instant as format_iso8601 writes it: a mark and 6 bytes.
  REQUIRE(packed_text::pack("2026-12-04T07:40:00.123Z", packed));
  CHECK(packed.size() == 7);
  CHECK(packed_text::unpack(packed) == "2026-12-04T07:40:00.123Z");
  // A record id as IdGenerator makes it: a mark, the prefix, the sequence.
  REQUIRE(packed_text::pack(id18("a0F5J0000000001"), packed));
  CHECK(packed.size() == 5);
  CHECK(packed_text::unpack(packed) == id18("a0F5J0000000001"));
  // Inside a body, beside the words.
  const std::string body = R"({"ContactId":")" + id18("0035J000000zzzz") +
                           R"(","StartDate":"2026-12-04T07:40:00.000Z"})";
  REQUIRE(packed_text::pack(body, packed));
  CHECK(packed_text::unpack(packed) == body);
  CHECK(packed.size() < 30);
  // A payment intent's and a session's random part: a mark and 16 bytes.
  REQUIRE(packed_text::pack("pi_0123456789abcdefghijklmn", packed));
  CHECK(packed.size() == 2 + 17);
  CHECK(packed_text::unpack(packed) == "pi_0123456789abcdefghijklmn");
  const std::string url = "https://127.0.0.1:8080/psp/checkout/cs_zzzzzzzzzzzzzzzzzzzzzzzz";
  REQUIRE(packed_text::pack(url, packed));
  CHECK(packed_text::unpack(packed) == url);
  // An email: "@example." is a word.
  REQUIRE(packed_text::pack("donor12345@example.org", packed));
  CHECK(packed_text::unpack(packed) == "donor12345@example.org");
  CHECK(packed.size() == 10 + 1 + 3);
  // The first and the largest sequence nine digits hold (past 32 bits).
  for (const std::string& id15 : {std::string("0035J0000000000"), std::string("0035J0zzzzzzzzz")}) {
    REQUIRE(packed_text::pack(id18(id15), packed));
    CHECK(packed_text::unpack(packed) == id18(id15));
  }
}

TEST_CASE("other instants and ids keep their own bytes", "[packed_text]") {
  // Not as format_iso8601 or IdGenerator write them: no milliseconds, an
  // offset, a day that does not exist, a suffix that does not match, a
  // fixture's id of another pod. Each comes back whole.
  for (const std::string& text :
       {std::string("2026-12-04T07:40:00Z and more text"),
        std::string("2026-12-04T07:40:00.000+01:00"), std::string("2026-02-30T07:40:00.000Z"),
        std::string("1969-12-31T23:59:59.999Z"), std::string("0035J000000zzzzAAA"),
        std::string("001xx000003DGb2AAG"), std::string("{\"Id\":\"0035J000000zzzzaaa\"}"),
        std::string("pi_0123456789ABCDEFGHIJKLMN"), std::string("cs_0123456789abcdefghijklm"),
        std::string("xx_0123456789abcdefghijklmn")}) {
    INFO(text);
    CHECK(round_trip(text) == text);
  }
  std::string packed;
  CHECK_FALSE(packed_text::pack("0035J000000zzzzAAA", packed));  // the wrong suffix: as it is
  // A field keeps a linked record's id in 9 bytes and reads it back.
  FieldMap m;
  for (int i = 0; i < 300; ++i)
    m.set("cpm__Linked_Id_Test__c", "a0F5J00000000" + std::to_string(100 + i));
  // The sequence "000000zzz" (62^3 - 1) in 3 bytes.
  const std::string id = "a0F5J0000000zzz" + fake_org::record_id_suffix("a0F5J0000000zzz");
  m.set("cpm__Linked_Id_Test__c", id);
  m.shrink();
  CHECK(m.find("cpm__Linked_Id_Test__c")->str() == id);
  // The packed mark and length; the id's mark, prefix, sequence (the
  // entry is 4 or 8 bytes, as other tests numbered names before).
  CHECK(m.value_bytes().front().second == 1 + 1 + 1 + 3 + 3);
}
