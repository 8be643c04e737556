#pragma once
// Repeated keys in a JSON body. RFC 8259 leaves `{"Amount": 5, "Amount": 500}`
// to the parser; nlohmann keeps the last value. For a payment API that
// ambiguity must not pass, so the parse records the first repeated key.
#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

namespace fake_org::http {

class RepeatedKeyFinder {
 public:
  // The parser callback (nlohmann::json::parse's third argument).
  bool operator()(int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed);

  bool found() const { return !repeated_.empty(); }
  const std::string& key() const { return repeated_; }
  // The dotted path of the object that holds it ("OneTime"; "" at the top).
  const std::string& where() const { return where_; }

 private:
  struct Level {
    std::vector<std::string> few;  // linear search while an object is small
    std::unordered_set<std::string> many;
    std::string name;  // the key this object is the value of
  };
  std::vector<Level> open_;
  std::string last_key_;
  std::string repeated_, where_;
};

}  // namespace fake_org::http
