// References to earlier subrequests, and the composite bodies' checks.
#include "composite_references.h"

#include <catch2/catch.hpp>

#include "composite_request.h"

using namespace fake_org::data;
using nlohmann::json;

TEST_CASE("composite references: fields, indexes, types and failures",
          "[domain][data][composite]") {
  ReferenceResults done;
  done["acct"] = nlohmann::ordered_json::parse(R"({"id":"001A","success":true,"errors":[]})");
  done["q"] = nlohmann::ordered_json::parse(
      R"({"totalSize":2,"records":[{"Id":"003A","Amount":12.5,"Address":{"city":"Bern"}},{"Id":"003B"}]})");
  CHECK(*resolve_text("/sobjects/Account/@{acct.id}", done) == "/sobjects/Account/001A");
  CHECK(*resolve_text("@{q.records[1].Id}-@{q.totalSize}", done) == "003B-2");
  CHECK_FALSE(resolve_text("@{ACCT.Id}", done).ok());  // referenceIds keep their case
  CHECK(*resolve_text("@{q.records[0].Address.city}", done) == "Bern");
  CHECK(*resolve_text("no references, a lone @{ brace", done) == "no references, a lone @{ brace");

  auto body = resolve_body({{"AccountId", "@{acct.id}"},
                            {"Amount", "@{q.records[0].Amount}"},
                            {"Note", "x @{q.totalSize}"},
                            {"Nested", {{"deep", {"@{acct.success}"}}}}},
                           done);
  REQUIRE(body.ok());
  CHECK((*body)["AccountId"] == "001A");
  CHECK((*body)["Amount"] == 12.5);  // a whole reference keeps its type
  CHECK((*body)["Note"] == "x 2");
  CHECK((*body)["Nested"]["deep"][0] == true);

  for (const char* bad : {"@{nowhere.id}", "@{acct.missing}", "@{q.records[9].Id}", "@{q.records}",
                          "@{q.records[x].Id}", "@{acct}", "@{q.records[99999999999].Id}"}) {
    auto r = resolve_text(bad, done);
    INFO(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.errors().front().code == "PROCESSING_HALTED");
    CHECK(r.errors().front().message.rfind("Invalid reference specified", 0) == 0);
  }
}

TEST_CASE("composite bodies: limits and shapes refused whole", "[domain][data][composite]") {
  auto sub = [](const std::string& url, const std::string& ref) {
    return json{{"method", "GET"}, {"url", url}, {"referenceId", ref}};
  };
  json list = json::array();
  for (int i = 0; i < 25; ++i)
    list.push_back(sub("/services/data/v59.0/sobjects", "r" + std::to_string(i)));
  CHECK(parse_composite({{"compositeRequest", list}}, "59.0").ok());
  list.push_back(sub("/services/data/v59.0/sobjects", "r25"));
  CHECK(parse_composite({{"compositeRequest", list}}, "59.0").errors().front().code ==
        "LIMIT_EXCEEDED");
  CHECK(parse_composite({{"compositeRequest",
                          {sub("/services/data/v59.0/sobjects", "a"),
                           sub("/services/data/v59.0/sobjects", "a")}}},
                        "59.0")
            .errors()
            .front()
            .code == "INVALID_INPUT");
  CHECK(parse_composite({{"compositeRequest", {sub("/services/data/v59.0/limits", "a")}}}, "59.0")
            .errors()
            .front()
            .code == "INVALID_INPUT");
  CHECK(is_query_or_collection("/services/data/v59.0/query?q=x", "59.0"));
  CHECK(is_query_or_collection("/services/data/v59.0/composite/sobjects/Account", "59.0"));
  CHECK_FALSE(is_query_or_collection("/services/data/v59.0/queryX", "59.0"));
  auto batch =
      parse_batch({{"batchRequests", {{{"method", "GET"}, {"url", "v59.0/limits"}}}}}, "59.0");
  REQUIRE(batch.ok());
  CHECK(batch->subrequests[0].url == "/services/data/v59.0/limits");  // a batch runs limits too
  CHECK_FALSE(parse_batch({{"batchRequests", {{{"method", "GET"}, {"url", 5}}}}}, "59.0").ok());
  CHECK_FALSE(parse_graphs({{"graphs", {{{"graphId", "g"}}}}}, "59.0").ok());
  CHECK_FALSE(
      parse_graphs({{"graphs", {{{"graphId", "g"}, {"compositeRequest", {sub("/x", "a")}}}}}},
                   "59.0")
          .ok());
}
