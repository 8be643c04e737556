#pragma once
// A record's fields in one block of memory: field names interned once per
// process, values encoded back to back, so a Contact costs about a hundred
// bytes instead of a std::map node and strings per field (decision 116).
//
// Locking rule: FieldNames is process-wide and safe from any thread (a new
// name is added under its mutex; a name's text never moves once added). A
// FieldMap has no lock: it is a value, changed only by the one thread that
// builds a record before the store publishes it.
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace fake_org {

// Field API names, each kept once; a FieldMap stores their numbers.
class FieldNames {
 public:
  // The number of `name`, adding it when new.
  static uint32_t intern(std::string_view name);
  // The number of `name` if some record named it; nullopt, adding nothing,
  // if none did (a name a client made up).
  static std::optional<uint32_t> lookup(std::string_view name);
  // The text of a number intern() gave.
  static std::string_view name(uint32_t id);
  // The same, as the string kept for the process's life.
  static const std::string& text(uint32_t id);
};

// One field's value as stored: a view into the FieldMap it came from (valid
// while that map is unchanged), with the questions callers used to ask a
// nlohmann::json.
class FieldValue {
 public:
  enum class Kind : uint8_t { kNull, kFalse, kTrue, kInt, kUInt, kDouble, kString, kJson };

  FieldValue() = default;
  FieldValue(Kind kind, std::string_view bytes) : kind_(kind), bytes_(bytes) {}
  // A text made when read (a packed text unpacked), which the value and
  // its copies keep alive.
  explicit FieldValue(std::shared_ptr<const std::string> text)
      : kind_(Kind::kString), bytes_(*text), owned_(std::move(text)) {}

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_boolean() const { return kind_ == Kind::kFalse || kind_ == Kind::kTrue; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_number() const {
    return kind_ == Kind::kInt || kind_ == Kind::kUInt || kind_ == Kind::kDouble;
  }
  bool is_number_integer() const { return kind_ == Kind::kInt || kind_ == Kind::kUInt; }
  bool is_number_float() const { return kind_ == Kind::kDouble; }
  bool is_object() const { return kind_ == Kind::kJson && !bytes_.empty() && bytes_[0] == '{'; }
  bool is_array() const { return kind_ == Kind::kJson && !bytes_.empty() && bytes_[0] == '['; }

  // A string's text ("" for any other kind).
  std::string_view str() const { return is_string() ? bytes_ : std::string_view(); }
  bool boolean() const { return kind_ == Kind::kTrue; }
  double number() const;
  int64_t integer() const;
  nlohmann::json json() const;

  // As nlohmann::json::get<T>(), for the types records hold.
  template <typename T>
  T get() const {
    if constexpr (std::is_same_v<T, std::string>) {
      return std::string(str());
    } else if constexpr (std::is_same_v<T, bool>) {
      return boolean();
    } else if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(number());
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(integer());
    } else {
      return json().template get<T>();
    }
  }

  friend bool operator==(const FieldValue& a, const FieldValue& b);
  friend bool operator!=(const FieldValue& a, const FieldValue& b) { return !(a == b); }

 private:
  Kind kind_ = Kind::kNull;
  std::string_view bytes_;                    // a string's text, a number's 8 bytes, a JSON text
  std::shared_ptr<const std::string> owned_;  // what bytes_ views, when not the map
};

void to_json(nlohmann::json& j, const FieldValue& v);

// Comparisons with anything a nlohmann::json is made from (tests, rules).
template <typename T, typename = std::enable_if_t<!std::is_same_v<std::decay_t<T>, FieldValue>>>
bool operator==(const FieldValue& a, const T& b) {
  return a.json() == nlohmann::json(b);
}
template <typename T, typename = std::enable_if_t<!std::is_same_v<std::decay_t<T>, FieldValue>>>
bool operator!=(const FieldValue& a, const T& b) {
  return !(a == b);
}

class FieldMap;

// What fields["Name"] gives a writer: assigning stores the value.
class FieldRef {
 public:
  FieldRef(FieldMap& map, std::string_view name) : map_(map), name_(name) {}
  template <typename T>
  FieldRef& operator=(T&& value);
  FieldRef& operator=(const FieldRef& other);
  // The value now stored (null when absent).
  FieldValue value() const;
  operator FieldValue() const { return value(); }  // NOLINT: reads as json's operator[] did
  bool is_null() const { return value().is_null(); }
  bool is_string() const { return value().is_string(); }
  template <typename T>
  T get() const {
    return value().get<T>();
  }

 private:
  FieldMap& map_;
  std::string_view name_;
};

template <typename T>
bool operator==(const FieldRef& a, const T& b) {
  return a.value() == b;
}
template <typename T>
bool operator!=(const FieldRef& a, const T& b) {
  return !(a.value() == b);
}

class FieldMap {
 public:
  FieldMap() : count_(0), wide_(0), shares_(0) {}
  FieldMap(const FieldMap& other);
  FieldMap(FieldMap&& other) noexcept;
  FieldMap& operator=(const FieldMap& other);
  FieldMap& operator=(FieldMap&& other) noexcept;
  ~FieldMap();
  // From a JSON object (anything else is an empty map).
  FieldMap(const nlohmann::json& object);  // NOLINT: records were built from json
  FieldMap& operator=(const nlohmann::json& object);
  FieldMap& operator=(nlohmann::json::initializer_list_t object) {
    return *this = nlohmann::json(object);
  }

  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  // The stored value, null values included; nullopt when absent.
  std::optional<FieldValue> find(std::string_view name) const;
  // The same for the name FieldNames::intern numbered `name_id`: numbers
  // compared, no text (an index key reads its fields on every write).
  std::optional<FieldValue> find_id(uint32_t name_id) const;
  // A text field's value with nothing allocated: a view into this map or
  // the texts kept once, or into `scratch` for a packed text (unpacked
  // there, its room reused). nullopt when the field is absent or not a text.
  std::optional<std::string_view> text_id(uint32_t name_id, std::string& scratch) const;
  bool contains(std::string_view name) const { return find(name).has_value(); }
  // As nlohmann::json::value: the value, or `fallback` when absent or null.
  nlohmann::json value(std::string_view name, const nlohmann::json& fallback) const;

  FieldRef operator[](std::string_view name) { return FieldRef(*this, name); }
  // The value (null when absent).
  FieldValue operator[](std::string_view name) const {
    auto v = find(name);
    return v ? *v : FieldValue();
  }
  void set(std::string_view name, const nlohmann::json& value);
  void set(std::string_view name, std::string_view text);
  void set(std::string_view name, const char* text) { set(name, std::string_view(text)); }
  void set(std::string_view name, const std::string& text) { set(name, std::string_view(text)); }
  void set(std::string_view name, const FieldValue& value);
  void set(std::string_view name, bool value);
  void set(std::string_view name, double value);
  void set(std::string_view name, int64_t value);
  void set(std::string_view name, int value) { set(name, static_cast<int64_t>(value)); }
  void set(std::string_view name, std::nullptr_t);
  // Anything else nlohmann::json is made from (unsigned numbers, arrays);
  // text types (a RecordId) as their text, with no json made.
  template <typename T>
  void set(std::string_view name, const T& value) {
    if constexpr (std::is_convertible_v<const T&, std::string_view>)
      set(name, std::string_view(value));
    else
      set(name, nlohmann::json(value));
  }
  // Stores under `name` the value `other` holds, its bytes kept once for
  // both (an inbound report's Name is its payment intent id); nothing when
  // `other` is absent. Setting either later stores its own value.
  void set_same(std::string_view name, std::string_view other);
  size_t erase(std::string_view name);
  // Drops the space replaced values left (the store calls it on commit).
  void shrink();
  // Empties the map and keeps its block for the next fields (a restore reads
  // every record's fields into one map).
  void clear();

  // Fields in name order, as a nlohmann::json object iterates them.
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::pair<std::string_view, FieldValue>;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;
    const_iterator(const FieldMap* map, uint32_t at) : map_(map), at_(at) {}
    value_type operator*() const { return map_->entry(at_); }
    std::string_view key() const { return map_->entry(at_).first; }
    FieldValue value() const { return map_->entry(at_).second; }
    const_iterator& operator++() {
      ++at_;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return at_ == o.at_; }
    bool operator!=(const const_iterator& o) const { return at_ != o.at_; }

   private:
    const FieldMap* map_;
    uint32_t at_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, count_}; }
  // json's spelling of iterating name and value pairs.
  const FieldMap& items() const { return *this; }

  nlohmann::json to_json() const;
  std::string dump() const { return to_json().dump(); }
  // Reads a JSON object's text (as dump() writes it) straight into a map:
  // a data directory's million records are read without a json tree each.
  // False, with `out` unspecified, when the text is no JSON object. `out`'s
  // block is reused and left at least the text's size: a record's own
  // block is laid out afresh (make_record).
  static bool parse(std::string_view text, FieldMap& out);
  // Bytes this map's entries and values take, gaps replaced values left
  // included (memory figures; a stored record's map has none).
  size_t heap_bytes() const { return count_ * entry_size() + used_; }
  // Each field's name and the bytes its value takes, its length included
  // (0 for a value whose bytes another field holds, set_same): memory figures.
  std::vector<std::pair<std::string_view, size_t>> value_bytes() const;
  // How a copy of a map is laid out: which entries hold their own bytes
  // (first_holders), its bytes, and whether its entries are 8 bytes.
  struct Layout {
    std::vector<uint32_t> holders;
    size_t bytes = 0;
    bool wide = false;
  };
  // The map laid out afresh, without gaps: `bytes` is the room copy_into needs.
  Layout layout() const;
  // Bytes this map takes laid out afresh (layout().bytes).
  size_t packed_bytes() const { return layout().bytes; }
  // Makes this empty map a copy of `from` laid out in `room` (`l.bytes` of
  // it, `l` from.layout()), which the caller owns and which must outlive the
  // map (a stored record's own block: decision 226). The map must not
  // change after.
  void copy_into(char* room, const FieldMap& from, const Layout& l);
  // Lets go of the room copy_into gave, without freeing it (the record's block
  // goes with it); the map is empty after.
  void forget_room();

  friend bool operator==(const FieldMap& a, const FieldMap& b);
  friend bool operator==(const FieldMap& a, const nlohmann::json& b) { return a.to_json() == b; }
  friend bool operator!=(const FieldMap& a, const nlohmann::json& b) { return !(a == b); }

 private:
  // An entry is 4 bytes (a name's number under 65,536, a value starting in
  // the first 8 KB: every record the API makes) or, once a map outgrows
  // that, 8; memory figures in docs/benchmarks.md.
  struct Wide {
    uint32_t name;
    uint32_t at;  // offset in the value area << 4 | kind
  };
  struct Narrow {
    uint16_t name;
    uint16_t at;  // offset in the value area << 3 | kind
  };
  static constexpr uint32_t kNarrowNames = 1u << 16;
  static constexpr uint32_t kNarrowOffsets = 1u << 13;
  // What an entry's low bits hold: a FieldValue::Kind, except that a text
  // kept once for its field (field_values.h) takes kUInt's code, and kUInt
  // one only a wide entry has room for (field_map.cpp).
  size_t entry_size() const { return wide_ ? sizeof(Wide) : sizeof(Narrow); }
  uint32_t name_at(uint32_t i) const;
  uint32_t offset_at(uint32_t i) const;
  uint32_t code_at(uint32_t i) const;
  void write_entry(uint32_t i, uint32_t name, uint32_t offset, uint32_t code);
  // Re-lays the entries 8 bytes each (a name or an offset past the narrow ones).
  void widen();
  std::pair<std::string_view, FieldValue> entry(uint32_t i) const;
  std::optional<uint32_t> index_of(uint32_t name_id) const;
  char* values() const { return buf_ + count_ * entry_size(); }
  // Position of `name` in the entries, or where it would go.
  std::pair<uint32_t, bool> locate(std::string_view name) const;
  // Stores `bytes` as the value of `name` with `kind`.
  void put(std::string_view name, FieldValue::Kind kind, std::string_view bytes);
  void reserve(size_t bytes);
  // Room for `value_bytes` more values and, with `new_entry`, an entry
  // opened at position i (later entries move up one).
  void make_room(uint32_t i, bool new_entry, size_t value_bytes);
  void copy_from(const FieldMap& other);
  size_t value_size(uint32_t i) const;
  // Fills this empty map, whose block has room for `l.bytes`, with `other`'s
  // live values as `l` lays them out.
  void fill_from(const FieldMap& other, const Layout& l);
  // Bytes of the block a map being built may fill (what malloc gave it).
  size_t capacity() const;
  // For each entry, the first entry whose value bytes it uses (set_same), or
  // itself; empty when no value is shared (then every entry holds its own).
  std::vector<uint32_t> first_holders() const;

  // 16 bytes in all, in every record (decision 226): the block's capacity is
  // malloc's to tell (capacity()), and a stored record's map is exactly full.
  char* buf_ = nullptr;  // entries, then values
  uint32_t count_ : 30;  // entries
  uint32_t wide_ : 1;    // entries are Wide, else Narrow
  uint32_t shares_ : 1;  // some entries hold one value (set_same)
  uint32_t used_ = 0;    // bytes of the value area in use
};

void to_json(nlohmann::json& j, const FieldMap& m);

template <typename T>
FieldRef& FieldRef::operator=(T&& value) {
  map_.set(name_, std::forward<T>(value));
  return *this;
}

}  // namespace fake_org
