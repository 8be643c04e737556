#pragma once
// JSON text for anything that leaves the process (HTTP answers, webhooks,
// reports, logs). nlohmann's dump throws on a string that is not UTF-8; a
// string can carry input that never went through the JSON parser (a path,
// a header, a form field, a message quoting a cut value), and one bad byte
// must not turn an answer into a 500. Such bytes become U+FFFD.
#include <charconv>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace fake_org::text {

namespace json_text_detail {

// Text nlohmann writes as it is: printable ASCII without quote or backslash.
inline bool plain(const std::string& s) {
  struct Table {
    bool plain[256] = {};
    constexpr Table() {
      for (int c = 0x20; c <= 0x7E; ++c) plain[c] = c != '"' && c != '\\';
    }
  };
  static constexpr Table kTable;
  for (char ch : s)
    if (!kTable.plain[static_cast<unsigned char>(ch)]) return false;
  return true;
}

template <class Integer>
void append_integer(std::string& out, Integer v) {
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  out.append(digits, end);
}

// Writes `j` compactly as nlohmann's dump() does, without its per-byte
// UTF-8 check: an answer's dump cost more than building the answer. False
// (out unspecified) on text needing escapes or checks, and on binary values.
template <class Json>
bool write_plain(const Json& j, std::string& out) {
  using Type = typename Json::value_t;
  switch (j.type()) {
    case Type::null:
      out += "null";
      return true;
    case Type::boolean:
      out += j.template get<bool>() ? "true" : "false";
      return true;
    case Type::number_integer:
      append_integer(out, j.template get<std::int64_t>());
      return true;
    case Type::number_unsigned:
      append_integer(out, j.template get<std::uint64_t>());
      return true;
    case Type::number_float:
      out += j.dump();  // nlohmann's own shortest form ("5.0", "1e+21")
      return true;
    case Type::string: {
      const auto& s = j.template get_ref<const typename Json::string_t&>();
      if (!plain(s)) return false;
      out += '"';
      out += s;
      out += '"';
      return true;
    }
    case Type::object: {
      // The container itself: nlohmann's iterators switch on the type at
      // every step.
      out += '{';
      bool first = true;
      for (const auto& [key, value] : j.template get_ref<const typename Json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        if (!plain(key)) return false;
        out += '"';
        out += key;
        out += "\":";
        if (!write_plain(value, out)) return false;
      }
      out += '}';
      return true;
    }
    case Type::array: {
      out += '[';
      bool first = true;
      for (const auto& v : j.template get_ref<const typename Json::array_t&>()) {
        if (!first) out += ',';
        first = false;
        if (!write_plain(v, out)) return false;
      }
      out += ']';
      return true;
    }
    default:  // binary, discarded
      return false;
  }
}

}  // namespace json_text_detail

// Any basic_json (nlohmann::json, or ordered_json where key order is part of
// the answer), written as it is ordered.
template <class Json>
std::string json_text(const Json& j, int indent = -1) {
  if (indent < 0) {
    std::string out;
    out.reserve(256);
    if (json_text_detail::write_plain(j, out)) return out;
  }
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace fake_org::text
