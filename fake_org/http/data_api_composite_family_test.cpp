// The REST data API's composite family over HTTP: composite with references
// and allOrNone, batch with haltOnError, tree in one transaction, graph with
// each graph all or none; and the bodies each refuses whole.
#include <catch2/catch.hpp>

#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

const std::string kFamilyComposite = kDataApi + "/composite";

json family_sub(const std::string& method, const std::string& path, const std::string& ref,
                const json& body = nullptr) {
  json s = {{"method", method}, {"url", kDataApi + path}, {"referenceId", ref}};
  if (!body.is_null()) s["body"] = body;
  return s;
}

Response post_family(TestOrg& t, const json& body) {
  auto r = t.post(kFamilyComposite, body);
  INFO(body.dump() << " -> " << r.body);
  REQUIRE(r.status == 200);
  return r;
}

json tree_account(const std::string& ref, const std::string& name, const json& contacts) {
  json a = {{"attributes", {{"type", "Account"}, {"referenceId", ref}}}, {"Name", name}};
  if (!contacts.is_null()) a["Contacts"] = {{"records", contacts}};
  return a;
}

json tree_contact(const std::string& ref, const std::string& last_name) {
  return {{"attributes", {{"type", "Contact"}, {"referenceId", ref}}}, {"LastName", last_name}};
}

}  // namespace

TEST_CASE("data API: composite subrequests reference earlier results",
          "[http][data][composite_family]") {
  TestOrg t(fixture("default.yaml"));
  const size_t accounts = t.count("Account");
  auto r = post_family(
      t,
      {{"compositeRequest",
        {family_sub("POST", "/sobjects/Account", "NewAccount", {{"Name", "Composite Co"}}),
         family_sub("GET", "/sobjects/Account/@{NewAccount.id}", "NewAccountInfo"),
         family_sub("POST", "/sobjects/Contact", "NewContact",
                    {{"LastName", "Doe"},
                     {"Title", "CTO of @{NewAccountInfo.Name}"},
                     {"AccountId", "@{NewAccountInfo.Id}"}}),
         family_sub("GET",
                    "/query?q=SELECT+Id,LastName+FROM+Contact+WHERE+AccountId='@{NewAccount.id}'",
                    "Contacts"),
         family_sub("DELETE", "/sobjects/Contact/@{Contacts.records[0].Id}", "Gone")}}});
  const json& out = r.json["compositeResponse"];
  REQUIRE(out.size() == 5);
  CHECK(out[0]["httpStatusCode"] == 201);
  CHECK(out[0]["referenceId"] == "NewAccount");
  const std::string account = out[0]["body"]["id"];
  CHECK(out[0]["httpHeaders"]["Location"] == kDataApi + "/sobjects/Account/" + account);
  CHECK(out[1]["httpStatusCode"] == 200);
  CHECK(out[1]["body"]["Name"] == "Composite Co");
  CHECK(out[2]["httpStatusCode"] == 201);
  CHECK(out[3]["body"]["totalSize"] == 1);
  CHECK(out[3]["body"]["records"][0]["LastName"] == "Doe");
  CHECK(out[4]["httpStatusCode"] == 204);
  CHECK(out[4]["body"].is_null());
  CHECK(t.count("Account") == accounts + 1);
  auto contact = t.get(kDataApi + "/sobjects/Contact/" + out[2]["body"]["id"].get<std::string>());
  CHECK(contact.status == 404);  // deleted by the last subrequest

  // The composite request is one call of the org's API usage, its
  // subrequests none.
  auto usage = [](const Response& res) {
    const std::string info = res.headers.find("Sforce-Limit-Info")->second;
    return std::stol(info.substr(info.find('=') + 1));
  };
  auto before = post_family(t, {{"compositeRequest", {family_sub("GET", "/sobjects", "a")}}});
  auto after = post_family(
      t, {{"compositeRequest",
           {family_sub("GET", "/sobjects", "a"), family_sub("GET", "/sobjects", "b")}}});
  CHECK(usage(after) == usage(before) + 1);
}

TEST_CASE("data API: an all-or-none composite writes nothing when one subrequest fails",
          "[http][data][composite_family]") {
  TestOrg t(fixture("default.yaml"));
  const size_t accounts = t.count("Account"), contacts = t.count("Contact");
  auto r = post_family(
      t, {{"allOrNone", true},
          {"compositeRequest",
           {family_sub("POST", "/sobjects/Account", "acct", {{"Name", "Rolled Back Co"}}),
            family_sub("POST", "/sobjects/Contact", "ok",
                       {{"LastName", "A"}, {"AccountId", "@{acct.id}"}}),
            family_sub("POST", "/sobjects/Contact", "bad", {{"FirstName", "No last name"}}),
            family_sub("GET", "/sobjects/Account/@{acct.id}", "after")}}});
  const json& out = r.json["compositeResponse"];
  REQUIRE(out.size() == 4);
  CHECK(out[2]["httpStatusCode"] == 400);
  CHECK(out[2]["body"][0]["errorCode"] == "REQUIRED_FIELD_MISSING");
  for (int i : {0, 1, 3}) {
    CHECK(out[i]["httpStatusCode"] == 400);
    CHECK(out[i]["body"][0]["errorCode"] == "PROCESSING_HALTED");
  }
  CHECK(t.count("Account") == accounts);
  CHECK(t.count("Contact") == contacts);

  // All succeed: one transaction whose reads see what it staged.
  auto ok = post_family(
      t, {{"allOrNone", true},
          {"compositeRequest",
           {family_sub("POST", "/sobjects/Account", "acct", {{"Name", "Committed Co"}}),
            family_sub("GET", "/sobjects/Account/@{acct.id}", "read"),
            family_sub("GET", "/query?q=SELECT+Id+FROM+Account+WHERE+Name='Committed+Co'", "q")}}});
  const json& done = ok.json["compositeResponse"];
  CHECK(done[1]["httpStatusCode"] == 200);
  CHECK(done[2]["body"]["totalSize"] == 1);
  CHECK(t.count("Account") == accounts + 1);
}

TEST_CASE("data API: a reference to a failed subrequest halts only its dependants",
          "[http][data][composite_family]") {
  TestOrg t(fixture("default.yaml"));
  auto r =
      post_family(t, {{"compositeRequest",
                       {family_sub("POST", "/sobjects/Contact", "bad", {{"FirstName", "X"}}),
                        family_sub("GET", "/sobjects/Contact/@{bad.id}", "dependant"),
                        family_sub("GET", "/sobjects/Contact/@{nowhere.id}", "unknown"),
                        family_sub("POST", "/sobjects/Contact", "fine", {{"LastName", "Fine"}})}}});
  const json& out = r.json["compositeResponse"];
  CHECK(out[0]["httpStatusCode"] == 400);
  CHECK(out[1]["httpStatusCode"] == 400);
  CHECK(out[1]["body"][0]["errorCode"] == "PROCESSING_HALTED");
  CHECK(out[1]["body"][0]["message"].get<std::string>().find("Invalid reference specified") == 0);
  CHECK(out[2]["body"][0]["errorCode"] == "PROCESSING_HALTED");
  CHECK(out[3]["httpStatusCode"] == 201);
}

TEST_CASE("data API: composite bodies refused whole", "[http][data][composite_family]") {
  TestOrg t(fixture("default.yaml"));
  auto refused = [&](const std::string& body, const std::string& code) {
    auto r = t.post_raw(kFamilyComposite, body);
    INFO(body.substr(0, 200) << " -> " << r.body);
    CHECK(r.status == 400);
    CHECK(data_error_code(r) == code);
  };
  json many = json::array();
  for (int i = 0; i < 26; ++i)
    many.push_back(family_sub("GET", "/sobjects", "r" + std::to_string(i)));
  refused(json{{"compositeRequest", many}}.dump(), "LIMIT_EXCEEDED");
  json queries = json::array();
  for (int i = 0; i < 6; ++i)
    queries.push_back(
        family_sub("GET", "/query?q=SELECT+Id+FROM+Account", "q" + std::to_string(i)));
  refused(json{{"compositeRequest", queries}}.dump(), "LIMIT_EXCEEDED");
  refused(
      R"({"compositeRequest":[{"method":"GET","url":"/services/apexrest/x","referenceId":"a"}]})",
      "INVALID_INPUT");
  refused(
      R"({"compositeRequest":[{"method":"GET","url":"/services/data/v58.0/sobjects","referenceId":"a"}]})",
      "INVALID_INPUT");
  refused(
      R"({"compositeRequest":[{"method":"GET","url":"/services/data/v59.0/sobjects","referenceId":"a b"}]})",
      "INVALID_INPUT");
  refused(
      R"({"compositeRequest":[{"method":"get","url":"/services/data/v59.0/sobjects","referenceId":"a"}]})",
      "INVALID_INPUT");
  refused(R"({"compositeRequest":"all of them"})", "JSON_PARSER_ERROR");
  refused(R"({"compositeRequest":[], "allOrNone": true})", "JSON_PARSER_ERROR");
  refused(R"({"compositeRequest":[1], "allOrNone": "yes"})", "JSON_PARSER_ERROR");
  refused(R"({"compositeRequest":[)", "JSON_PARSER_ERROR");
  refused(R"([1,2,3])", "JSON_PARSER_ERROR");

  // Only sObject, query and collection resources; no other composite request.
  refused(json{{"compositeRequest", {family_sub("POST", "/composite", "inner", json::object())}}}
              .dump(),
          "INVALID_INPUT");
  refused(json{{"compositeRequest", {family_sub("GET", "/limits", "l")}}}.dump(), "INVALID_INPUT");
  // An unknown object answers as the direct request would.
  auto unknown =
      post_family(t, {{"compositeRequest", {family_sub("GET", "/sobjects/Nothing/x", "x")}}});
  CHECK(unknown.json["compositeResponse"][0]["httpStatusCode"] == 404);
}

TEST_CASE("data API: composite batch runs independent subrequests",
          "[http][data][composite_family]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post(kDataApi + "/composite/batch",
                  {{"haltOnError", true},
                   {"batchRequests",
                    {{{"method", "POST"},
                      {"url", "v59.0/sobjects/Contact"},
                      {"richInput", {{"LastName", "B1"}}}},
                     {{"method", "GET"}, {"url", "v59.0/sobjects/Contact/003000000000000AAA"}},
                     {{"method", "GET"}, {"url", "/services/data/v59.0/limits"}}}}});
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK(r.json["hasErrors"] == true);
  CHECK(r.json["results"][0]["statusCode"] == 201);
  CHECK(r.json["results"][1]["statusCode"] == 404);
  CHECK(r.json["results"][2]["statusCode"] == 412);
  CHECK(r.json["results"][2]["result"][0]["errorCode"] == "BATCH_PROCESSING_HALTED");
  auto plain = t.post(kDataApi + "/composite/batch",
                      {{"batchRequests", {{{"method", "GET"}, {"url", "v59.0/limits"}}}}});
  CHECK(plain.json["hasErrors"] == false);
  CHECK(plain.json["results"][0]["result"].contains("DailyApiRequests"));
}

TEST_CASE("data API: composite tree creates parents and children in one transaction",
          "[http][data][composite_family]") {
  TestOrg t(fixture("default.yaml"));
  const std::string tree = kDataApi + "/composite/tree/Account";
  const size_t accounts = t.count("Account"), contacts = t.count("Contact");
  auto r =
      t.post(tree, {{"records",
                     {tree_account("ref1", "Tree One",
                                   {tree_contact("ref2", "Leaf"), tree_contact("ref3", "Twig")}),
                      tree_account("ref4", "Tree Two", nullptr)}}});
  INFO(r.body);
  REQUIRE(r.status == 201);
  CHECK(r.json["hasErrors"] == false);
  REQUIRE(r.json["results"].size() == 4);
  CHECK(r.json["results"][0]["referenceId"] == "ref1");
  const std::string parent = r.json["results"][0]["id"];
  const std::string leaf = r.json["results"][1]["id"];
  CHECK(t.get(kDataApi + "/sobjects/Contact/" + leaf).json["AccountId"] == parent);
  CHECK(t.count("Account") == accounts + 2);
  CHECK(t.count("Contact") == contacts + 2);

  // One refused child: nothing at all is written.
  const json no_last_name = {{"attributes", {{"type", "Contact"}, {"referenceId", "c2"}}}};
  auto bad = t.post(
      tree,
      {{"records", {tree_account("a1", "Half Tree", {tree_contact("c1", "Fine"), no_last_name})}}});
  INFO(bad.body);
  CHECK(bad.status == 400);
  CHECK(bad.json["hasErrors"] == true);
  REQUIRE(bad.json["results"].size() == 1);
  CHECK(bad.json["results"][0]["referenceId"] == "c2");
  CHECK(bad.json["results"][0]["errors"][0]["statusCode"] == "REQUIRED_FIELD_MISSING");
  CHECK(t.count("Account") == accounts + 2);
  CHECK(t.count("Contact") == contacts + 2);

  auto dup = t.post(
      tree,
      {{"records", {tree_account("same", "D1", nullptr), tree_account("same", "D2", nullptr)}}});
  CHECK(dup.status == 400);
  CHECK(dup.json["results"][0]["errors"][0]["statusCode"] == "INVALID_INPUT");
  auto wrong_type = t.post(tree, {{"records", {tree_contact("x", "Not an account")}}});
  CHECK(wrong_type.status == 400);
  CHECK(t.post(kDataApi + "/composite/tree/Nothing", {{"records", json::array()}}).status == 404);
}

TEST_CASE("data API: composite tree limits hold for huge and deep trees",
          "[http][data][composite_family]") {
  TestOrg t(fixture("default.yaml"));
  const std::string tree = kDataApi + "/composite/tree/Account";
  const size_t accounts = t.count("Account");
  json many = json::array();
  for (int i = 0; i < 10000; ++i)
    many.push_back(tree_account("r" + std::to_string(i), "Many " + std::to_string(i), nullptr));
  auto huge = t.post(tree, {{"records", many}});
  CHECK(huge.status == 400);
  CHECK(data_error_code(huge) == "LIMIT_EXCEEDED");
  json just_over = json::array();
  for (int i = 0; i < 201; ++i) just_over.push_back(many[i]);
  CHECK(t.post(tree, {{"records", just_over}}).status == 400);
  json at_limit = json::array();
  for (int i = 0; i < 200; ++i) at_limit.push_back(many[i]);
  CHECK(t.post(tree, {{"records", at_limit}}).status == 201);
  CHECK(t.count("Account") == accounts + 200);

  // Accounts nest under ChildAccounts: six levels are one too many.
  json deep = tree_account("d0", "Deep 0", nullptr);
  for (int level = 1; level < 6; ++level)
    deep = {{"attributes", {{"type", "Account"}, {"referenceId", "d" + std::to_string(level)}}},
            {"Name", "Deep " + std::to_string(level)},
            {"ChildAccounts", {{"records", {deep}}}}};
  auto too_deep = t.post(tree, {{"records", {deep}}});
  INFO(too_deep.body);
  CHECK(too_deep.status == 400);
  CHECK(t.count("Account") == accounts + 200);
  for (const char* body : {"{", "[]", R"({"records": 5})", R"({"records": [5]})",
                           R"({"records": [{"attributes": 5}]})"}) {
    auto r = t.post_raw(tree, body);
    INFO(body << " -> " << r.body);
    CHECK(r.status == 400);
  }
}

TEST_CASE("data API: composite graph commits each graph on its own",
          "[http][data][composite_family]") {
  TestOrg t(fixture("default.yaml"));
  const size_t accounts = t.count("Account");
  auto r =
      t.post(kDataApi + "/composite/graph",
             {{"graphs",
               {{{"graphId", "good"},
                 {"compositeRequest",
                  {family_sub("POST", "/sobjects/Account", "a", {{"Name", "Graph Good"}}),
                   family_sub("POST", "/sobjects/Contact", "c",
                              {{"LastName", "G"}, {"AccountId", "@{a.id}"}})}}},
                {{"graphId", "bad"},
                 {"compositeRequest",
                  {family_sub("POST", "/sobjects/Account", "a", {{"Name", "Graph Bad"}}),
                   family_sub("POST", "/sobjects/Contact", "c", {{"FirstName", "No last"}})}}}}}});
  INFO(r.body);
  REQUIRE(r.status == 200);
  const json& graphs = r.json["graphs"];
  REQUIRE(graphs.size() == 2);
  CHECK(graphs[0]["graphId"] == "good");
  CHECK(graphs[0]["isSuccessful"] == true);
  CHECK(graphs[1]["isSuccessful"] == false);
  CHECK(graphs[1]["graphResponse"]["compositeResponse"][0]["body"][0]["errorCode"] ==
        "PROCESSING_HALTED");
  CHECK(t.count("Account") == accounts + 1);
  CHECK(t.post(kDataApi + "/composite/graph", {{"graphs", "none"}}).status == 400);
}
