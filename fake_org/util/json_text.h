#pragma once
// JSON text for anything that leaves the process (HTTP answers, webhooks,
// reports, logs). nlohmann's dump throws on a string that is not UTF-8; a
// string can carry input that never went through the JSON parser (a path,
// a header, a form field, a message quoting a cut value), and one bad byte
// must not turn an answer into a 500. Such bytes become U+FFFD.
#include <string>

#include <nlohmann/json.hpp>

namespace fake_org::text {

// Any basic_json (nlohmann::json, or ordered_json where key order is part of
// the answer), written as it is ordered.
template <class Json>
std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace fake_org::text
