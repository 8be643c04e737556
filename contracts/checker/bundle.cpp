// bundle(): every "$ref" resolved per RFC 3986 against the base URI that
// "$id"s establish, and the referenced documents copied under "/x-bundle/<n>"
// of the root, so that valijson only ever sees local references. Two reasons:
// valijson 1.0 resolves relative references by string concatenation, and its
// subschema cache is keyed by JSON pointer alone, so two documents with the
// same pointer (e.g. both roots) would share one compiled subschema.
//
// Then every "propertyNames" subschema moves to a sibling key and is replaced
// by a "$ref" to it: valijson 1.0 parses "propertyNames" under its *parent's*
// pointer, so when the parent was reached through a "$ref" (and thus cached
// under that pointer) the parent itself became the property-name schema and
// every name failed, e.g. "type": "object". A "$ref" gets its own cache key.
#include <deque>
#include <map>
#include <set>
#include <utility>

#include "core.h"
#include "schema_walk.h"
#include "uri.h"

namespace contracts::core {
namespace {

using nlohmann::json;

struct Location {
  size_t doc = 0;
  std::string pointer;
};

class Bundler {
 public:
  explicit Bundler(const Fetcher& fetch) : fetch_(fetch) {}

  Bundle run(const json& root, const std::string& root_uri) {
    add(root, root_uri);
    // Every reference target is a schema, even where no keyword leads to it
    // (e.g. "#/integer" in a plain document), so targets are walked in turn.
    pending_.push_back(Location{0, ""});
    while (!pending_.empty()) {
      Location next = pending_.back();
      pending_.pop_back();
      json& node = out_[next.doc].at(json::json_pointer(next.pointer));
      rewrite(node, next.doc, base_at(next.doc, next.pointer), next.pointer);
    }
    Bundle out;
    out.doc_uris = uris_;
    out.document = std::move(out_[0]);
    if (out_.size() > 1) {
      if (!out.document.is_object()) {
        throw SchemaError(root_uri + ": a boolean root schema cannot carry references");
      }
      if (out.document.contains(kBundleKey)) {
        throw SchemaError(root_uri + ": the keyword \"" + std::string(kBundleKey) +
                          "\" is reserved by the checker");
      }
      json extra = json::object();
      for (size_t i = 1; i < out_.size(); ++i) extra[std::to_string(i)] = std::move(out_[i]);
      out.document[kBundleKey] = std::move(extra);
    }
    hoist_property_names(out.document, "");
    // Targets no keyword leads to (e.g. "#/integer" of a plain document).
    for (size_t i = 0; i < refs_.size(); ++i) {
      std::string target = moved(refs_[i].second);
      hoist_property_names(out.document.at(json::json_pointer(target)), target);
    }
    if (!moves_.empty()) retarget_refs(out.document);
    for (const auto& move : moves_) out.property_names.push_back(moved(move.second));
    return out;
  }

 private:
  void add(const json& doc, const std::string& uri) {
    size_t n = docs_.size();
    docs_.push_back(doc);
    out_.push_back(doc);
    uris_.push_back(uri);
    index_.emplace(uri, Location{n, ""});
    index_ids(docs_[n], n, uri, "");
  }

  // The base URI in force inside `node`, given the one outside it; records
  // what the node's "$id" names.
  std::string scope_of(const json& node, size_t doc, const std::string& base,
                       const std::string& ptr, bool record) {
    auto id = node.find("$id");
    if (id == node.end() || !id->is_string()) return base;
    std::string resolved = uri::resolve(base, id->get<std::string>());
    auto [document, fragment] = uri::split_fragment(resolved);
    if (fragment.empty()) {
      if (record) index_.emplace(document, Location{doc, ptr});
      return document;
    }
    // "#name" names this subschema without changing the base.
    if (record && fragment[0] != '/') index_.emplace(resolved, Location{doc, ptr});
    return base;
  }

  void index_ids(const json& node, size_t doc, const std::string& base, const std::string& ptr) {
    if (!node.is_object()) return;
    // Draft-07: every sibling of "$ref", "$id" included, is ignored.
    if (node.contains("$ref")) return;
    std::string here = scope_of(node, doc, base, ptr, true);
    for_each_subschema(node, ptr, [&](const json& child, const std::string& child_ptr) {
      index_ids(child, doc, here, child_ptr);
    });
  }

  // The base URI in force at `ptr`, from the "$id"s of the objects above it.
  std::string base_at(size_t doc, const std::string& ptr) {
    std::string base = uris_[doc];
    const json* node = &docs_[doc];
    for (const std::string& token : uri::pointer_tokens(ptr)) {
      if (node->is_object() && !node->contains("$ref"))
        base = scope_of(*node, doc, base, "", false);
      if (node->is_object() && node->contains(token)) {
        node = &(*node)[token];
      } else if (node->is_array() && !token.empty() && token.size() <= 9 &&
                 token.find_first_not_of("0123456789") == std::string::npos &&
                 std::stoul(token) < node->size()) {
        node = &(*node)[std::stoul(token)];
      } else {
        break;
      }
    }
    return base;
  }

  void rewrite(json& node, size_t doc, const std::string& base, const std::string& ptr) {
    if (!node.is_object() || !rewritten_.insert({doc, ptr}).second) return;
    auto ref = node.find("$ref");
    if (ref != node.end()) {
      std::string where = uris_[doc] + "#" + ptr;
      if (!ref->is_string()) throw SchemaError("$ref at " + where + " is not a string");
      Location target = locate(uri::resolve(base, ref->get<std::string>()), where);
      pending_.push_back(target);
      std::string bundled = target.doc == 0 ? target.pointer
                                            : "/" + std::string(kBundleKey) + "/" +
                                                  std::to_string(target.doc) + target.pointer;
      *ref = "#" + uri::pointer_for_valijson(bundled);
      refs_.push_back({bundled_prefix(doc) + ptr, bundled});
      return;
    }
    std::string here = scope_of(node, doc, base, ptr, false);
    for_each_subschema(node, ptr, [&](json& child, const std::string& child_ptr) {
      rewrite(child, doc, here, child_ptr);
    });
  }

  static std::string bundled_prefix(size_t doc) {
    return doc == 0 ? "" : "/" + std::string(kBundleKey) + "/" + std::to_string(doc);
  }

  // Children first, so that a move inside a moved subschema is recorded (and
  // later applied) before the move that carries it along.
  void hoist_property_names(json& node, const std::string& ptr) {
    if (!node.is_object() || node.contains("$ref")) return;
    if (ptr.empty() && node.contains(kBundleKey)) {
      for (auto& [n, doc] : node[kBundleKey].items()) {
        hoist_property_names(doc, uri::pointer_append("/" + std::string(kBundleKey), n));
      }
    }
    for_each_subschema(node, ptr, [&](json& child, const std::string& child_ptr) {
      hoist_property_names(child, child_ptr);
    });
    auto names = node.find("propertyNames");
    // A "$ref" there already has a cache key of its own (and marks one moved).
    if (names == node.end() || (names->is_object() && names->contains("$ref"))) return;
    if (node.contains(kPropertyNamesKey)) {
      throw SchemaError("the keyword \"" + std::string(kPropertyNamesKey) + "\" at " + ptr +
                        " is reserved by the checker");
    }
    const std::string to = uri::pointer_append(ptr, kPropertyNamesKey);
    json moved = std::move(*names);
    *names = json{{"$ref", "#" + uri::pointer_for_valijson(to)}};
    node[kPropertyNamesKey] = std::move(moved);
    moves_.push_back({uri::pointer_append(ptr, "propertyNames"), to});
  }

  // Where a pointer of the bundle went after the moves.
  std::string moved(std::string ptr) const {
    for (const auto& [from, to] : moves_) {
      if (ptr == from || ptr.rfind(from + "/", 0) == 0) ptr = to + ptr.substr(from.size());
    }
    return ptr;
  }

  // References into a moved subschema (or written inside one) follow it.
  void retarget_refs(json& document) const {
    for (const auto& [at, target] : refs_) {
      std::string new_target = moved(target);
      if (new_target == target) continue;
      document.at(json::json_pointer(moved(at)))["$ref"] =
          "#" + uri::pointer_for_valijson(new_target);
    }
  }

  Location locate(const std::string& target, const std::string& where) {
    auto hit = index_.find(target);
    if (hit != index_.end()) return hit->second;
    auto [document, fragment] = uri::split_fragment(target);
    if (index_.find(document) == index_.end()) {
      std::optional<json> fetched = fetch_ ? fetch_(document) : std::nullopt;
      if (!fetched)
        throw SchemaError("cannot fetch " + document + " (referenced at " + where + ")");
      add(*fetched, document);
    }
    if (!fragment.empty() && fragment[0] != '/') {
      hit = index_.find(target);
      if (hit == index_.end()) {
        throw SchemaError("no subschema has \"$id\" " + target + " (referenced at " + where + ")");
      }
      return hit->second;
    }
    Location loc = index_.at(document);
    loc.pointer += uri::percent_decode(fragment);
    try {
      (void)docs_[loc.doc].at(json::json_pointer(loc.pointer));
    } catch (const json::exception&) {
      throw SchemaError("reference " + target + " at " + where + " points to nothing");
    }
    return loc;
  }

  const Fetcher& fetch_;
  // Deques: documents are appended while references into them are held.
  std::deque<json> docs_;  // as fetched
  std::deque<json> out_;   // references rewritten
  std::vector<Location> pending_;
  std::set<std::pair<size_t, std::string>> rewritten_;
  std::vector<std::string> uris_;
  // Every rewritten "$ref": {its object's bundled pointer, its target}.
  std::vector<std::pair<std::string, std::string>> refs_;
  // "propertyNames" subschemas moved: {from, to}, in the order moved.
  std::vector<std::pair<std::string, std::string>> moves_;
  // Absolute URIs (documents, "$id"s, "$id" plain names) -> where they are.
  std::map<std::string, Location> index_;
};

}  // namespace

Bundle bundle(const nlohmann::json& root, const std::string& root_uri, const Fetcher& fetch) {
  return Bundler(fetch).run(root, root_uri);
}

}  // namespace contracts::core
