#include "json_keys.h"

#include <algorithm>

namespace fake_org::http {

namespace {

constexpr size_t kFewKeys = 16;

bool insert_key(std::vector<std::string>& few, std::unordered_set<std::string>& many,
                const std::string& key) {
  if (!many.empty()) return many.insert(key).second;
  if (std::find(few.begin(), few.end(), key) != few.end()) return false;
  few.push_back(key);
  if (few.size() > kFewKeys) {  // a wide object: hashing from here on
    many.insert(few.begin(), few.end());
    few.clear();
  }
  return true;
}

}  // namespace

bool RepeatedKeyFinder::operator()(int, nlohmann::json::parse_event_t event,
                                   nlohmann::json& parsed) {
  using E = nlohmann::json::parse_event_t;
  switch (event) {
    case E::object_start:
      open_.push_back(Level{{}, {}, open_.empty() ? std::string() : last_key_});
      break;
    case E::object_end:
      if (!open_.empty()) open_.pop_back();
      break;
    case E::key: {
      if (open_.empty() || !parsed.is_string()) break;
      last_key_ = parsed.get_ref<const std::string&>();
      Level& level = open_.back();
      if (!insert_key(level.few, level.many, last_key_) && repeated_.empty()) {
        repeated_ = last_key_;
        for (size_t i = 1; i < open_.size(); ++i) {
          if (open_[i].name.empty()) continue;
          if (!where_.empty()) where_ += ".";
          where_ += open_[i].name;
        }
      }
      break;
    }
    default:
      break;
  }
  return true;
}

}  // namespace fake_org::http
