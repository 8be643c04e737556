#include "json_keys.h"

namespace fake_org::http {

nlohmann::json RepeatedKeyFinder::parse(std::string_view text) {
  nlohmann::json::sax_parse(text, this);
  return std::move(root_);
}

nlohmann::json* RepeatedKeyFinder::put(nlohmann::json value) {
  if (open_.empty()) {
    root_ = std::move(value);
    return &root_;
  }
  nlohmann::json& top = *open_.back();
  if (top.is_array()) {
    top.push_back(std::move(value));
    return &top.back();
  }
  *element_ = std::move(value);
  return element_;
}

void RepeatedKeyFinder::open(nlohmann::json value) {
  // An object or array in an array goes by the array's name.
  names_.push_back(open_.empty()              ? std::string()
                   : open_.back()->is_array() ? names_.back()
                                              : last_key_);
  open_.push_back(put(std::move(value)));
}

bool RepeatedKeyFinder::start_object(std::size_t) {
  open(nlohmann::json::object());
  return true;
}

bool RepeatedKeyFinder::key(std::string& k) {
  nlohmann::json& object = *open_.back();
  if (repeated_.empty() && object.contains(k)) {
    repeated_ = k;
    for (size_t i = 1; i < names_.size(); ++i) {
      if (names_[i].empty() || !open_[i]->is_object()) continue;
      if (!where_.empty()) where_ += ".";
      where_ += names_[i];
    }
  }
  last_key_ = k;
  element_ = &object[std::move(k)];  // a repeated key's last value stays
  return true;
}

bool RepeatedKeyFinder::end_object() {
  open_.pop_back();
  names_.pop_back();
  return true;
}

bool RepeatedKeyFinder::start_array(std::size_t) {
  open(nlohmann::json::array());
  return true;
}

bool RepeatedKeyFinder::end_array() {
  open_.pop_back();
  names_.pop_back();
  return true;
}

}  // namespace fake_org::http
