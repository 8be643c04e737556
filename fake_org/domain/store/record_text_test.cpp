#include "record.h"

#include <catch2/catch.hpp>

#include <map>
#include <thread>
#include <vector>

using namespace fake_org;

TEST_CASE("a record id is kept inline and reads as the text it was given", "[record]") {
  Record r;
  CHECK(r.id.empty());
  CHECK(std::string(r.id.c_str()).empty());
  r.id = std::string("0035J00000000mMQAQ");
  CHECK(r.id == "0035J00000000mMQAQ");
  CHECK(r.id.size() == 18);
  CHECK(r.id.substr(0, 3) == "003");
  CHECK(std::string(r.id.c_str()) == "0035J00000000mMQAQ");
  CHECK("Contact " + r.id == "Contact 0035J00000000mMQAQ");
  CHECK(nlohmann::json(r.id) == "0035J00000000mMQAQ");
  CHECK(nlohmann::json("0035J00000000mMQAQ") == r.id);
  r.id = "003000000000001";  // 15 characters: kept as given
  CHECK(r.id.view() == "003000000000001");
  CHECK_THROWS_AS(r.id = "0035J00000000mMQAQX", std::length_error);
  CHECK(r.id == "003000000000001");  // a refused id changes nothing
}

TEST_CASE("object names are interned: one text, compared as strings", "[record]") {
  Record a, b;
  CHECK(a.object.empty());
  CHECK(a.object == "");
  a.object = std::string("cpm__Installment__c");
  b.object = std::string_view("cpm__Installment__c");
  CHECK(&a.object.text() == &b.object.text());
  CHECK(a.object == b.object);
  CHECK(a.object != "Contact");
  const std::string& as_string = a.object;
  CHECK(as_string == "cpm__Installment__c");
  std::map<std::string, int, std::less<>> counts;
  ++counts[a.object];
  CHECK(counts.count("cpm__Installment__c") == 1);
  CHECK(a.object < ObjectName("cpm__Payment__c"));
}

TEST_CASE("a GUID costs one pointer when absent and copies as a value", "[record]") {
  CompactString none;
  CHECK(none.empty());
  CHECK(none.view().data() != nullptr);  // as std::string: SQLite binds "" not NULL
  CompactString g;
  g = "6c916662-daaa-47f7-9793-b5f6fcc7281c";
  CompactString copy = g;
  CompactString moved = std::move(g);
  CHECK(copy == moved);
  CHECK(copy.view() == "6c916662-daaa-47f7-9793-b5f6fcc7281c");
  const CompactString& same = copy;
  copy = same;  // assigned to itself: keeps the text
  CHECK(copy == "6c916662-daaa-47f7-9793-b5f6fcc7281c");
  copy.clear();
  CHECK(copy.empty());
  static_assert(sizeof(CompactString) == sizeof(void*));
}

TEST_CASE("a record is at most 72 bytes, shared with a count inside it", "[record]") {
  // 72 bytes, and its fields and GUID in the same block (decision 226).
  static_assert(sizeof(Record) <= 72);
  static_assert(sizeof(RecordPtr) == sizeof(void*));
  Record r;
  r.object = "Contact";
  r.id = "0035J00000000mMQAQ";
  r.fields = {{"Email", "ada@example.org"}};
  RecordPtr p = make_record(r);
  RecordPtr q = p;
  CHECK(q == p);
  CHECK(q->text("Email") == "ada@example.org");
  Record copy = *p;  // a copy is a new, unshared value
  copy.fields = {{"Email", "grace@example.org"}};
  RecordPtr other = make_record(std::move(copy));
  CHECK(other != p);
  CHECK(p->text("Email") == "ada@example.org");
  p.reset();
  CHECK(!p);
  CHECK(p == nullptr);
  CHECK(q->id == "0035J00000000mMQAQ");  // q still holds it
  // Handles copied and dropped on several threads leave the count whole.
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([q] {
      for (int i = 0; i < 10000; ++i) {
        RecordPtr local = q;
        RecordPtr again = std::move(local);
      }
    });
  for (auto& t : threads) t.join();
  CHECK(q->object == "Contact");
}

TEST_CASE("a stored record keeps its fields and GUID in its own block", "[record]") {
  Record r;
  r.object = "cpm__Installment__c";
  r.id = "a0F5J00000000mMQAQ";
  r.guid = "6c916662-daaa-47f7-9793-b5f6fcc7281c";
  r.fields = {{"Name", "INST-000001"}, {"cpm__Amount__c", 10}};
  r.fields.set("Name", "INST-000002");  // the first name's bytes become a gap
  const size_t laid_out = r.fields.packed_bytes();
  CHECK(laid_out < r.fields.heap_bytes());
  RecordPtr p = make_record(std::move(r));
  const char* block = reinterpret_cast<const char*>(p.get());
  CHECK(p->fields.heap_bytes() == laid_out);
  CHECK(p->block_bytes() == sizeof(Record) + laid_out + 1 + 36 + 1);
  // Fields, then the GUID's text, inside the record's block.
  const std::string_view guid = p->guid.view();
  CHECK(guid == "6c916662-daaa-47f7-9793-b5f6fcc7281c");
  CHECK(guid.data() > block);
  CHECK(guid.data() + guid.size() < block + p->block_bytes());
  CHECK(std::string(p->guid.c_str()) == guid);
  CHECK(p->text("Name") == "INST-000002");
  CHECK(p->get("cpm__Amount__c")->integer() == 10);
  // A copy is a value with blocks of its own, which may change.
  Record copy = *p;
  copy.fields.set("Name", "INST-000003");
  copy.guid = "00000000-0000-4000-8000-000000000000";
  CHECK(p->text("Name") == "INST-000002");
  CHECK(p->guid == "6c916662-daaa-47f7-9793-b5f6fcc7281c");
  RecordPtr q = make_record(copy);
  CHECK(q->text("Name") == "INST-000003");
  p.reset();
  CHECK(q->guid == "00000000-0000-4000-8000-000000000000");
  // A record without fields or GUID is the Record alone.
  Record bare;
  bare.object = "Contact";
  bare.id = "0035J00000000mMQAQ";
  CHECK(make_record(bare)->block_bytes() == sizeof(Record));
}

TEST_CASE("records made from one reused record keep fields of their own", "[record]") {
  // As a restore reads rows: one Record, its fields' block reused each row.
  Record row;
  std::vector<RecordPtr> made;
  for (int i = 0; i < 3; ++i) {
    const std::string n = std::to_string(i);
    row.object = "Contact";
    row.id = "0035J00000000m" + n + "AAA";
    row.guid = "6c916662-daaa-47f7-9793-b5f6fcc7281" + n;
    REQUIRE(FieldMap::parse(R"({"Email":"d)" + n + R"(@example.org","LastName":"Donor)" + n + "\"}",
                            row.fields));
    made.push_back(make_record_from(row));
    CHECK(row.fields.heap_bytes() == 0);  // emptied for the next row
    CHECK_FALSE(row.fields.find("LastName").has_value());
  }
  for (int i = 0; i < 3; ++i) {
    const std::string n = std::to_string(i);
    CHECK(made[i]->text("LastName") == "Donor" + n);
    CHECK(made[i]->text("Email") == "d" + n + "@example.org");
    CHECK(made[i]->guid == "6c916662-daaa-47f7-9793-b5f6fcc7281" + n);
    CHECK(made[i]->block_bytes() ==
          sizeof(Record) + made[i]->fields.heap_bytes() + made[i]->guid.room_bytes());
  }
}
