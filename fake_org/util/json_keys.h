#pragma once
// Repeated keys in a JSON body. RFC 8259 leaves `{"Amount": 5, "Amount": 500}`
// to the parser; nlohmann keeps the last value. For a payment API that
// ambiguity must not pass, so the parse records the first repeated key.
//
// The tree is built from nlohmann's SAX events in the same pass, as its own
// parser builds it (the last value of a repeated key stays): a parser
// callback cost twice the parse, a json value made for every event.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace fake_org::http {

class RepeatedKeyFinder {
 public:
  // The tree of `text`, as nlohmann::json::parse gives it; throws what that
  // throws (parse_error, out_of_range for a number no double holds).
  nlohmann::json parse(std::string_view text);

  bool found() const { return !repeated_.empty(); }
  const std::string& key() const { return repeated_; }
  // The dotted path of the object that holds it ("OneTime"; "" at the top).
  const std::string& where() const { return where_; }

  // nlohmann's SAX interface (json::sax_parse).
  bool null() { return place(nullptr); }
  bool boolean(bool v) { return place(v); }
  bool number_integer(std::int64_t v) { return place(v); }
  bool number_unsigned(std::uint64_t v) { return place(v); }
  bool number_float(double v, const std::string&) { return place(v); }
  bool string(std::string& v) { return place(std::move(v)); }
  bool binary(nlohmann::json::binary_t& v) { return place(nlohmann::json::binary(std::move(v))); }
  bool start_object(std::size_t);
  bool key(std::string& k);
  bool end_object();
  bool start_array(std::size_t);
  bool end_array();
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e;  // the concrete type, as nlohmann's own parser throws it
  }

 private:
  // Puts a value where the text has it: the root, an array's end, or the
  // value of the key just read.
  nlohmann::json* put(nlohmann::json value);
  // Puts an empty object or array and opens it.
  void open(nlohmann::json value);
  bool place(nlohmann::json value) {
    put(std::move(value));
    return true;
  }

  nlohmann::json root_;
  std::vector<nlohmann::json*> open_;  // the objects and arrays being filled
  nlohmann::json* element_ = nullptr;  // the value of the key just read
  std::vector<std::string> names_;     // per open container, the key it is the value of
  std::string last_key_, repeated_, where_;
};

}  // namespace fake_org::http
