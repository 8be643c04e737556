#pragma once
// The texts every record carries, each in the fewest bytes that keep it a
// text to its readers: the id inline (no heap block for 18 characters), the
// object's API name interned once per process (its 4-byte number, one text
// for every record), and the GUID behind one pointer (8 bytes when absent;
// in a stored record's own block when present, decision 226). All three
// read as std::string_view and compare and concatenate as strings.
//
// Locking rule: values, no shared state; ObjectName interns through
// FieldNames, which is safe from any thread.
#include <cstdint>
#include <cstring>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "length_prefix.h"

namespace fake_org {

// What a text-like member offers beside its conversion to std::string_view
// (`Derived` provides view()).
template <typename Derived>
class TextLike {
 public:
  operator std::string_view() const { return self().view(); }  // NOLINT: reads as a string
  std::string str() const { return std::string(self().view()); }
  bool empty() const { return self().view().empty(); }
  size_t size() const { return self().view().size(); }
  std::string substr(size_t pos, size_t n = std::string::npos) const {
    return std::string(self().view().substr(pos, n));
  }

  friend bool operator==(const Derived& a, const Derived& b) { return a.view() == b.view(); }
  friend bool operator!=(const Derived& a, const Derived& b) { return a.view() != b.view(); }
  friend bool operator<(const Derived& a, const Derived& b) { return a.view() < b.view(); }
  friend bool operator<(const Derived& a, std::string_view b) { return a.view() < b; }
  friend bool operator<(std::string_view a, const Derived& b) { return a < b.view(); }
  friend bool operator==(const Derived& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(std::string_view a, const Derived& b) { return a == b.view(); }
  friend bool operator!=(const Derived& a, std::string_view b) { return a.view() != b; }
  friend bool operator!=(std::string_view a, const Derived& b) { return a != b.view(); }
  friend bool operator==(const Derived& a, const std::string& b) { return a.view() == b; }
  friend bool operator==(const std::string& a, const Derived& b) { return a == b.view(); }
  friend bool operator!=(const Derived& a, const std::string& b) { return a.view() != b; }
  friend bool operator!=(const std::string& a, const Derived& b) { return a != b.view(); }
  friend bool operator==(const Derived& a, const char* b) { return a.view() == b; }
  friend bool operator==(const char* a, const Derived& b) { return a == b.view(); }
  friend bool operator!=(const Derived& a, const char* b) { return a.view() != b; }
  friend bool operator!=(const char* a, const Derived& b) { return a != b.view(); }
  friend std::string operator+(const Derived& a, std::string_view b) {
    std::string s(a.view());
    return s.append(b);
  }
  friend std::string operator+(std::string_view a, const Derived& b) {
    std::string s(a);
    return s.append(b.view());
  }
  friend std::string operator+(const Derived& a, const std::string& b) {
    return a + std::string_view(b);
  }
  friend std::string operator+(const std::string& a, const Derived& b) {
    return std::string_view(a) + b;
  }
  friend std::string operator+(const Derived& a, const char* b) { return a + std::string_view(b); }
  friend std::string operator+(const char* a, const Derived& b) { return std::string_view(a) + b; }
  friend std::string operator+(std::string&& a, const Derived& b) {
    return std::move(a.append(b.view()));
  }
  friend bool operator==(const nlohmann::json& a, const Derived& b) {
    return a.is_string() && a.template get_ref<const std::string&>() == b.view();
  }
  friend bool operator==(const Derived& a, const nlohmann::json& b) { return b == a; }
  friend bool operator!=(const nlohmann::json& a, const Derived& b) { return !(a == b); }
  friend bool operator!=(const Derived& a, const nlohmann::json& b) { return !(b == a); }
  friend std::ostream& operator<<(std::ostream& os, const Derived& t) { return os << t.view(); }
  friend void to_json(nlohmann::json& j, const Derived& t) { j = std::string(t.view()); }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

// A record id: at most 18 characters, kept inline and NUL-terminated.
class RecordId : public TextLike<RecordId> {
 public:
  static constexpr size_t kMaxSize = 18;
  RecordId() = default;
  explicit RecordId(std::string_view text) { assign(text); }
  RecordId& operator=(std::string_view text) { return assign(text); }
  RecordId& operator=(const std::string& text) { return assign(text); }
  RecordId& operator=(const char* text) { return assign(text); }

  std::string_view view() const { return {text_, size_}; }
  operator std::string() const { return std::string(view()); }  // NOLINT: reads as a string
  const char* c_str() const { return text_; }
  void clear() { assign({}); }

 private:
  RecordId& assign(std::string_view text) {
    if (text.size() > kMaxSize)
      throw std::length_error("a record id has at most 18 characters: " + std::string(text));
    std::memcpy(text_, text.data(), text.size());
    text_[text.size()] = '\0';
    size_ = static_cast<uint8_t>(text.size());
    return *this;
  }
  char text_[kMaxSize + 1] = {};
  uint8_t size_ = 0;
};

// An object's API name ("Contact", "cpm__Installment__c"), interned: the
// same name is always the same address.
class ObjectName : public TextLike<ObjectName> {
 public:
  ObjectName();
  explicit ObjectName(std::string_view name) { assign(name); }
  ObjectName& operator=(std::string_view name) { return assign(name); }
  ObjectName& operator=(const std::string& name) { return assign(name); }
  ObjectName& operator=(const char* name) { return assign(name); }

  std::string_view view() const { return text(); }
  // The interned text itself (lives as long as the process).
  const std::string& text() const;
  operator const std::string&() const { return text(); }  // NOLINT: reads as a string
  const char* c_str() const { return text().c_str(); }

 private:
  ObjectName& assign(std::string_view name);
  // FieldNames' number of the name (4 bytes where a pointer took 8), or
  // kNone for no name.
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t name_;
};

// A text behind one pointer: 8 bytes when empty, one heap block otherwise
// (a GUID, which most objects' records have and Contacts do not).
class CompactString : public TextLike<CompactString> {
 public:
  CompactString() = default;
  explicit CompactString(std::string_view text) { assign(text); }
  CompactString(const CompactString& other) { assign(other.view()); }
  CompactString(CompactString&& other) noexcept : block_(other.block_) { other.block_ = nullptr; }
  CompactString& operator=(const CompactString& other) {
    if (this != &other) assign(other.view());
    return *this;
  }
  CompactString& operator=(CompactString&& other) noexcept {
    std::swap(block_, other.block_);
    return *this;
  }
  CompactString& operator=(std::string_view text) { return assign(text); }
  CompactString& operator=(const std::string& text) { return assign(text); }
  CompactString& operator=(const char* text) { return assign(text); }
  ~CompactString() { delete[] block_; }

  std::string_view view() const {
    if (!block_) return std::string_view("", 0);  // data() is never null, as std::string's
    uint32_t n;
    const char* text = length_prefix::read(block_, n);
    return {text, n};
  }
  operator std::string() const { return std::string(view()); }  // NOLINT: reads as a string
  const char* c_str() const { return block_ ? view().data() : ""; }
  void clear() { assign({}); }
  // Bytes of the text's block (its length, the text, a NUL): what move_to needs.
  size_t room_bytes() const {
    if (!block_) return 0;
    const size_t n = view().size();
    return length_prefix::size(n) + n + 1;
  }
  // Copies the block into `room` (room_bytes()), which the caller owns and
  // which must outlive the string (make_record's block), and frees its own.
  void move_to(char* room) {
    if (!block_) return;
    std::memcpy(room, block_, room_bytes());
    delete[] block_;
    block_ = room;
  }
  // Lets go of the room move_to gave, without freeing it.
  void forget_room() { block_ = nullptr; }

 private:
  CompactString& assign(std::string_view text);
  char* block_ = nullptr;  // the length (1-4 bytes, length_prefix.h), the text, a NUL
};

}  // namespace fake_org
