#include "composite_request.h"

#include <algorithm>
#include <set>

namespace fake_org::data {

namespace {

DataError bad_input(const std::string& message) {
  return data_error(code::kInvalidInput, message);
}

std::string data_prefix(std::string_view version) {
  return "/services/data/v" + std::string(version) + "/";
}

bool is_reference_id(const std::string& id) {
  if (id.empty() || id.size() > 255) return false;
  for (char c : id)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

bool is_method(const std::string& m) {
  return m == "GET" || m == "POST" || m == "PATCH" || m == "PUT" || m == "DELETE";
}

// A string member of `item`, or nullptr when absent or of another type.
const nlohmann::json* string_member(const nlohmann::json& item, const char* key) {
  auto it = item.find(key);
  return it != item.end() && it->is_string() ? &*it : nullptr;
}

// One subrequest of a composite or graph request; `where` names it in errors.
DataResult<Subrequest> parse_subrequest(const nlohmann::json& item, std::string_view version,
                                        const std::string& where) {
  if (!item.is_object()) return bad_input(where + " must be a JSON object");
  Subrequest s;
  const nlohmann::json* method = string_member(item, "method");
  if (!method || !is_method(method->get<std::string>()))
    return bad_input(where + ": method must be one of GET, POST, PATCH, PUT, DELETE");
  s.method = method->get<std::string>();
  const nlohmann::json* url = string_member(item, "url");
  if (!url) return bad_input(where + ": url is required");
  s.url = url->get<std::string>();
  if (s.url.rfind(data_prefix(version), 0) != 0)
    return bad_input(where + ": the url " + s.url + " is not a data API URL of this version (" +
                     data_prefix(version) + "...); a composite request runs only those");
  const nlohmann::json* ref = string_member(item, "referenceId");
  if (!ref) return bad_input(where + ": referenceId is required");
  s.reference_id = ref->get<std::string>();
  if (!is_reference_id(s.reference_id))
    return bad_input(where + ": the referenceId '" + s.reference_id +
                     "' may hold only letters, digits and underscores");
  if (auto body = item.find("body"); body != item.end()) s.body = *body;
  if (auto headers = item.find("httpHeaders"); headers != item.end() && !headers->is_null()) {
    if (!headers->is_object()) return bad_input(where + ": httpHeaders must be a JSON object");
    for (auto h = headers->begin(); h != headers->end(); ++h) {
      if (!h->is_string()) return bad_input(where + ": each of httpHeaders must be a string");
      s.headers[h.key()] = h->get<std::string>();
    }
  }
  return s;
}

// Whether `rest` (the url after /services/data/vNN.0/) starts with `kind`
// as a whole segment run.
bool starts_with_resource(std::string_view rest, std::string_view kind) {
  return rest.substr(0, kind.size()) == kind &&
         (rest.size() == kind.size() || rest[kind.size()] == '/' || rest[kind.size()] == '?');
}

// The resources a composite or graph subrequest may name, as the guide
// lists them: sObject resources, query, queryAll and sObject collections.
bool composite_may_run(std::string_view url, std::string_view version) {
  const std::string prefix = data_prefix(version);
  std::string_view rest = url.substr(std::min(url.size(), prefix.size()));
  for (std::string_view kind : {"sobjects", "query", "queryAll", "composite/sobjects"})
    if (starts_with_resource(rest, kind)) return true;
  return false;
}

// A compositeRequest list of at most `max` subrequests with unique referenceIds.
DataResult<std::vector<Subrequest>> parse_list(const nlohmann::json& list, std::string_view version,
                                               size_t max) {
  if (!list.is_array() || list.empty())
    return data_error(code::kJsonParserError, "compositeRequest must be a non-empty JSON array");
  if (list.size() > max)
    return data_error(code::kLimitExceeded, "Limit exceeded: a composite request takes at most " +
                                                std::to_string(max) + " subrequests, not " +
                                                std::to_string(list.size()));
  std::vector<Subrequest> out;
  std::set<std::string> seen;
  for (size_t i = 0; i < list.size(); ++i) {
    auto s = parse_subrequest(list[i], version, "Subrequest " + std::to_string(i));
    if (!s.ok()) return s.errors();
    if (!composite_may_run(s->url, version))
      return bad_input("Subrequest " + std::to_string(i) + ": a composite request runs sObject, " +
                       "query, queryAll and sObject collection requests, not " + s->url);
    if (!seen.insert(s->reference_id).second)
      return bad_input("Duplicate referenceId '" + s->reference_id + "' in the request");
    out.push_back(std::move(*s));
  }
  return out;
}

// A boolean member, false when absent.
DataResult<bool> optional_flag(const nlohmann::json& body, const char* key) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return false;
  if (!it->is_boolean())
    return data_error(code::kJsonParserError, std::string(key) + " must be true or false");
  return it->get<bool>();
}

}  // namespace

bool is_query_or_collection(std::string_view url, std::string_view version) {
  const std::string prefix = data_prefix(version);
  if (url.substr(0, prefix.size()) != prefix) return false;
  std::string_view rest = url.substr(prefix.size());
  for (std::string_view kind : {"query", "queryAll", "composite/sobjects"})
    if (starts_with_resource(rest, kind)) return true;
  return false;
}

DataResult<CompositeRequest> parse_composite(const nlohmann::json& body, std::string_view version) {
  if (!body.is_object() || !body.contains("compositeRequest"))
    return data_error(code::kJsonParserError,
                      "The body must be a JSON object with a \"compositeRequest\" array");
  CompositeRequest out;
  auto all_or_none = optional_flag(body, "allOrNone");
  if (!all_or_none.ok()) return all_or_none.errors();
  auto collate = optional_flag(body, "collateSubrequests");
  if (!collate.ok()) return collate.errors();
  out.all_or_none = *all_or_none;
  out.collate = *collate;
  auto list = parse_list(body["compositeRequest"], version, kMaxCompositeSubrequests);
  if (!list.ok()) return list.errors();
  out.subrequests = std::move(*list);
  size_t queries = 0;
  for (const auto& s : out.subrequests) queries += is_query_or_collection(s.url, version) ? 1 : 0;
  if (queries > kMaxCompositeQueries)
    return data_error(code::kLimitExceeded,
                      "Limit exceeded: a composite request takes at most 5 query and sObject "
                      "collection subrequests, not " +
                          std::to_string(queries));
  return out;
}

DataResult<std::vector<Graph>> parse_graphs(const nlohmann::json& body, std::string_view version) {
  if (!body.is_object() || !body.contains("graphs") || !body["graphs"].is_array() ||
      body["graphs"].empty())
    return data_error(code::kJsonParserError,
                      "The body must be a JSON object with a non-empty \"graphs\" array");
  std::vector<Graph> out;
  std::set<std::string> ids;
  size_t nodes = 0;
  for (const auto& g : body["graphs"]) {
    const nlohmann::json* id = g.is_object() ? string_member(g, "graphId") : nullptr;
    if (!id || id->get<std::string>().empty())
      return bad_input("Each graph needs a graphId (a string) and a compositeRequest array");
    if (!ids.insert(id->get<std::string>()).second)
      return bad_input("Duplicate graphId '" + id->get<std::string>() + "' in the request");
    if (!g.contains("compositeRequest"))
      return data_error(code::kJsonParserError,
                        "Graph " + id->get<std::string>() + " has no compositeRequest array");
    auto list = parse_list(g["compositeRequest"], version, kMaxGraphNodes);
    if (!list.ok()) return list.errors();
    nodes += list->size();
    if (nodes > kMaxGraphNodes)
      return data_error(code::kLimitExceeded,
                        "Limit exceeded: the graphs of one request take at most 500 nodes");
    out.push_back(Graph{id->get<std::string>(), std::move(*list)});
  }
  return out;
}

DataResult<BatchRequest> parse_batch(const nlohmann::json& body, std::string_view version) {
  if (!body.is_object() || !body.contains("batchRequests") || !body["batchRequests"].is_array() ||
      body["batchRequests"].empty())
    return data_error(code::kJsonParserError,
                      "The body must be a JSON object with a non-empty \"batchRequests\" array");
  const nlohmann::json& list = body["batchRequests"];
  if (list.size() > kMaxBatchSubrequests)
    return data_error(
        code::kLimitExceeded,
        "Limit exceeded: a batch takes at most 25 subrequests, not " + std::to_string(list.size()));
  BatchRequest out;
  auto halt = optional_flag(body, "haltOnError");
  if (!halt.ok()) return halt.errors();
  out.halt_on_error = *halt;
  for (size_t i = 0; i < list.size(); ++i) {
    nlohmann::json item = list[i];
    if (item.is_object())
      if (const nlohmann::json* url = string_member(item, "url"))
        if (const std::string text = url->get<std::string>(); text.rfind('/', 0) != 0)
          item["url"] = "/services/data/" + text;
    if (item.is_object()) {
      item["referenceId"] = "batch" + std::to_string(i);
      if (item.contains("richInput")) item["body"] = item["richInput"];
    }
    auto s = parse_subrequest(item, version, "Batch subrequest " + std::to_string(i));
    if (!s.ok()) return s.errors();
    s->reference_id.clear();
    out.subrequests.push_back(std::move(*s));
  }
  return out;
}

}  // namespace fake_org::data
