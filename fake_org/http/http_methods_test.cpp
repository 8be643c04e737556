// HEAD, OPTIONS and the path forms every area takes (decision 138): HEAD
// answers as GET without the body on every GET row of the route table, the
// data API's included (the platform CLI checks a session with
// HEAD /services/data/vNN.0); OPTIONS names a path's methods or refuses a
// CORS preflight; doubled and trailing slashes route as the plain path.
#include <catch2/catch.hpp>

#include <set>

#include "checker/route_table.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

// A concrete path of a row: its mount, and a plausible value per {Name}.
std::string concrete_path(const contracts::RouteRow& row, const std::string& base) {
  const std::string& mount = row.area == "api"     ? base
                             : row.area == "data"  ? std::string("/services/data")
                             : row.area == "admin" ? std::string("/__admin")
                                                   : std::string();
  std::string out = mount;
  for (std::string_view s : contracts::path_segments(row.path)) {
    if (s.empty()) continue;
    out += '/';
    if (!contracts::is_param_segment(s)) {
      out += std::string(s);
      continue;
    }
    const std::string name(s.substr(1, s.size() - 2));
    out += name == "version" ? "v59.0" : name == "sobject" || name == "Type" ? "Contact" : "x1";
  }
  return out;
}

httplib::Headers auth_headers(TestOrg& t) {
  return {{"Authorization", "Bearer " + t.token()}};
}

// The headers a client sees, less those that name the moment or count the
// request itself (the data API's Sforce-Limit-Info: api-usage=N/M).
std::multimap<std::string, std::string> comparable(const httplib::Headers& headers) {
  std::multimap<std::string, std::string> out;
  for (const auto& [name, value] : headers)
    if (name != "Date" && name != "Sforce-Limit-Info") out.emplace(name, value);
  return out;
}

}  // namespace

TEST_CASE("HEAD answers every GET row with the GET's status and headers and no body",
          "[http][methods]") {
  TestOrg t(fixture("default.yaml"));
  const httplib::Headers auth = auth_headers(t);
  // Bodies that change between two requests: the limits count the request,
  // the admin pages show the request journal and the clock.
  const std::set<std::string> changing = {"getDataLimits", "getAdminRequests", "getAdminUi",
                                          "getAdminUiRequests", "getAdminClock"};
  size_t rows = 0;
  for (const auto& row : contracts::route_table().rows) {
    if (row.method != "GET") continue;
    ++rows;
    const std::string path = concrete_path(row, t.org().config().base_path());
    INFO(row.operation_id << " " << path);
    auto get = t.client().Get(path.c_str(), auth);
    auto head = t.client().Head(path.c_str(), auth);
    REQUIRE(get);
    REQUIRE(head);
    CHECK(head->status == get->status);
    CHECK(head->status != 405);
    CHECK(head->body.empty());
    auto get_headers = comparable(get->headers);
    auto head_headers = comparable(head->headers);
    if (changing.count(row.operation_id)) {
      get_headers.erase("Content-Length");
      head_headers.erase("Content-Length");
    } else {
      // As sent (compressed when the client takes gzip), not the decoded body's size.
      CHECK_FALSE(head->get_header_value("Content-Length").empty());
      CHECK(head->get_header_value("Content-Length") == get->get_header_value("Content-Length"));
    }
    // A dashboard page's policy carries a nonce of its own each time.
    CHECK(head->has_header("Content-Security-Policy") ==
          get->has_header("Content-Security-Policy"));
    get_headers.erase("Content-Security-Policy");
    head_headers.erase("Content-Security-Policy");
    CHECK(head_headers == get_headers);
    CHECK(head->has_header("Sforce-Limit-Info") == get->has_header("Sforce-Limit-Info"));
  }
  CHECK(rows > 40);
}

TEST_CASE("HEAD /services/data/v59.0 checks a session: 200 with a token, 401 without",
          "[http][methods][data]") {
  TestOrg t(fixture("default.yaml"));
  auto ok = t.client().Head(kDataApi.c_str(), auth_headers(t));
  REQUIRE(ok);
  CHECK(ok->status == 200);
  CHECK(ok->body.empty());
  auto get = t.client().Get(kDataApi.c_str(), auth_headers(t));
  REQUIRE(get);
  CHECK(ok->get_header_value("Content-Length") == get->get_header_value("Content-Length"));
  CHECK(ok->get_header_value("Content-Type") == get->get_header_value("Content-Type"));

  auto none = t.client().Head(kDataApi.c_str());
  REQUIRE(none);
  CHECK(none->status == 401);
  CHECK(none->body.empty());
  auto expired = t.client().Head(kDataApi.c_str(), {{"Authorization", "Bearer nope"}});
  REQUIRE(expired);
  CHECK(expired->status == 401);
}

TEST_CASE("OPTIONS names the path's methods without a token, a CORS preflight is refused",
          "[http][methods]") {
  TestOrg t(fixture("default.yaml"));
  auto sobject = t.client().Options((kDataApi + "/sobjects/Contact").c_str());
  REQUIRE(sobject);
  CHECK(sobject->status == 200);
  CHECK(sobject->get_header_value("Allow") == "GET, HEAD, POST, OPTIONS");
  CHECK(sobject->body.empty());
  CHECK(sobject->get_header_value("Content-Length") == "0");

  auto intent = t.client().Options((t.org().config().base_path() + "/PaymentIntent/").c_str());
  REQUIRE(intent);
  CHECK(intent->status == 200);
  CHECK(intent->get_header_value("Allow") == "POST, OPTIONS");

  auto versions = t.client().Options("/services/data/");
  REQUIRE(versions);
  CHECK(versions->get_header_value("Allow") == "GET, HEAD, OPTIONS");

  auto preflight = t.client().Options(
      (kDataApi + "/query").c_str(),
      {{"Origin", "https://app.example.org"}, {"Access-Control-Request-Method", "GET"}});
  REQUIRE(preflight);
  CHECK(preflight->status == 403);
  CHECK_FALSE(preflight->has_header("Access-Control-Allow-Origin"));
  auto refusal = json::parse(preflight->body);
  CHECK(refusal[0]["errorCode"] == "FORBIDDEN");
  CHECK(refusal[0]["message"].get<std::string>().find("https://app.example.org") !=
        std::string::npos);

  // An unknown path: the area's answer (the data API's token first).
  auto unknown = t.client().Options((kDataApi + "/nope").c_str(), auth_headers(t));
  REQUIRE(unknown);
  CHECK(unknown->status == 404);
  auto outside = t.client().Options("/nowhere");
  REQUIRE(outside);
  CHECK(outside->status == 404);
}

TEST_CASE("data API paths with a trailing slash or a doubled leading slash are served",
          "[http][methods][data]") {
  TestOrg t(fixture("default.yaml"));
  const std::string q =
      "?q=" + httplib::detail::encode_query_param("SELECT Id, LastName FROM Contact");
  auto plain = t.get(kDataApi + "/query" + q);
  REQUIRE(plain.status == 200);
  for (const std::string& path : {kDataApi + "/query/" + q, kDataApi + "/queryAll/" + q}) {
    INFO(path);
    auto r = t.get(path);
    CHECK(r.status == 200);
    CHECK(r.json["totalSize"] == plain.json["totalSize"]);
  }
  // What a client that keeps "http://host:port/" as its instance URL sends.
  const httplib::Headers auth = auth_headers(t);
  auto doubled = t.client().Get(("/" + kDataApi + "/query" + q).c_str(), auth);
  REQUIRE(doubled);
  CHECK(doubled->status == 200);
  CHECK(json::parse(doubled->body)["totalSize"] == plain.json["totalSize"]);
  CHECK(t.get(kDataApi + "/").status == 200);
  CHECK(t.get(kDataApi + "/sobjects/Contact/").json["objectDescribe"]["name"] == "Contact");
  auto versions = t.get("/services/data/", false);
  CHECK(versions.status == 200);
  CHECK(versions.json.is_array());

  auto created = t.post(kDataApi + "/sobjects/Contact/", {{"LastName", "Slash"}});
  INFO(created.body);
  REQUIRE(created.status == 201);
  const std::string id = created.json["id"];
  auto read = t.client().Get(("/" + kDataApi + "/sobjects/Contact/" + id + "/").c_str(), auth);
  REQUIRE(read);
  CHECK(read->status == 200);
  CHECK(json::parse(read->body)["LastName"] == "Slash");
  auto updated = t.client().Patch(("/" + kDataApi + "/sobjects/Contact/" + id).c_str(), auth,
                                  R"({"FirstName":"A"})", "application/json");
  REQUIRE(updated);
  CHECK(updated->status == 204);
}
