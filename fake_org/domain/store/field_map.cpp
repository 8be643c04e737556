#include "field_map.h"

#include <malloc.h>
#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "field_values.h"
#include "length_prefix.h"
#include "packed_text.h"
#include "util/thread_cache.h"

namespace fake_org {

namespace {

// Names live in chunks that never move, so a name() needs no lock: a
// record holding a number was published after the number was added.
constexpr size_t kChunk = 1024;
constexpr size_t kChunks = 1024;

struct NameTable {
  std::shared_mutex mu;
  std::unordered_map<std::string, uint32_t> ids;
  std::unique_ptr<std::string[]> chunks[kChunks];
  uint32_t count = 0;
};

NameTable& name_table() {
  static NameTable* t = new NameTable;  // never destroyed: records outlive statics
  return *t;
}

// The number the shared table has for `name`, if any.
std::optional<uint32_t> find_shared(std::string_view name) {
  NameTable& t = name_table();
  std::shared_lock lock(t.mu);
  auto it = t.ids.find(std::string(name));
  if (it == t.ids.end()) return std::nullopt;
  return it->second;
}

uint32_t intern_slow(std::string_view name) {
  if (auto id = find_shared(name)) return *id;
  NameTable& t = name_table();
  std::unique_lock lock(t.mu);
  auto [it, fresh] = t.ids.emplace(std::string(name), t.count);
  if (!fresh) return it->second;
  if (t.count >= kChunk * kChunks) {
    t.ids.erase(it);
    throw std::length_error("more than a million distinct field names");
  }
  auto& chunk = t.chunks[t.count / kChunk];
  if (!chunk) chunk.reset(new std::string[kChunk]);
  chunk[t.count % kChunk] = std::string(name);
  return t.count++;
}

using Kind = FieldValue::Kind;

}  // namespace

namespace {

// What this thread knows of the names: the number of a text at the address
// it had last time (code names fields by constants, fields.h), checked by
// its text, costs no hash; every name met, by text, asks the shared table
// once.
class KnownNames {
 public:
  std::optional<uint32_t> find(std::string_view name) {
    Slot& slot = slot_of(name);
    // An empty slot's null address is no name's (a default string_view has it).
    if (slot.data != nullptr && slot.data == name.data() && FieldNames::name(slot.id) == name)
      return slot.id;
    probe_.assign(name.data(), name.size());
    auto it = seen_.find(probe_);
    if (it == seen_.end()) return std::nullopt;
    slot = {name.data(), it->second};
    return it->second;
  }
  void add(std::string_view name, uint32_t id) {
    seen_.emplace(std::string(name), id);
    slot_of(name) = {name.data(), id};
  }

 private:
  struct Slot {
    const char* data = nullptr;
    uint32_t id = 0;
  };
  Slot& slot_of(std::string_view name) {
    return slots_[(reinterpret_cast<uintptr_t>(name.data()) >> 3 ^ name.size()) % slots_.size()];
  }
  std::array<Slot, 512> slots_;
  std::unordered_map<std::string, uint32_t> seen_;
  std::string probe_;
};

// Records of one object name their fields in the same order (a restart
// reads a million of them): the name met after the previous one last time
// is tried first, one comparison instead of hashing.
struct NameOrder {
  std::vector<uint32_t> after;  // name -> the name met next, + 1
  uint32_t last = UINT32_MAX;
};

// What this thread knows, made on its first name and dropped when it gives
// back (a reset): kept in thread-local storage, every worker that ever served
// a request kept its pages resident, and its map's nodes, made among a busy
// run's records, pinned pages a reset freed (decision 95).
struct ThreadNames {
  KnownNames known;
  NameOrder order;
};
thread_local std::unique_ptr<ThreadNames> thread_names;

ThreadNames& this_thread_names() {
  if (__builtin_expect(!thread_names, 0)) {
    thread_names = std::make_unique<ThreadNames>();
    util::on_thread_give_back([] { thread_names.reset(); });
  }
  return *thread_names;
}

KnownNames& known_names() {
  return this_thread_names().known;
}

}  // namespace

uint32_t FieldNames::intern(std::string_view name) {
  ThreadNames& names = this_thread_names();
  std::vector<uint32_t>& after = names.order.after;
  uint32_t& last = names.order.last;
  if (last < after.size() && after[last] != 0 && FieldNames::name(after[last] - 1) == name)
    return last = after[last] - 1;
  KnownNames& known = names.known;
  uint32_t id;
  if (auto k = known.find(name)) {
    id = *k;
  } else {
    id = intern_slow(name);
    known.add(name, id);
  }
  if (last != UINT32_MAX) {
    if (after.size() <= last) after.resize(last + 1);
    after[last] = id + 1;
  }
  return last = id;
}

std::optional<uint32_t> FieldNames::lookup(std::string_view name) {
  KnownNames& known = known_names();
  if (auto k = known.find(name)) return k;
  auto id = find_shared(name);
  if (id) known.add(name, *id);
  return id;
}

std::string_view FieldNames::name(uint32_t id) {
  return name_table().chunks[id / kChunk][id % kChunk];
}

const std::string& FieldNames::text(uint32_t id) {
  return name_table().chunks[id / kChunk][id % kChunk];
}

// ---- FieldValue -------------------------------------------------------------

double FieldValue::number() const {
  switch (kind_) {
    case Kind::kInt:
    case Kind::kUInt:
      return static_cast<double>(integer());
    case Kind::kDouble: {
      double d;
      std::memcpy(&d, bytes_.data(), sizeof d);
      return d;
    }
    case Kind::kTrue:
      return 1;
    default:
      return 0;
  }
}

int64_t FieldValue::integer() const {
  switch (kind_) {
    case Kind::kInt:
    case Kind::kUInt: {
      int64_t v;
      std::memcpy(&v, bytes_.data(), sizeof v);
      return v;
    }
    case Kind::kDouble:
      return static_cast<int64_t>(number());
    case Kind::kTrue:
      return 1;
    default:
      return 0;
  }
}

nlohmann::json FieldValue::json() const {
  switch (kind_) {
    case Kind::kNull:
      return nullptr;
    case Kind::kFalse:
      return false;
    case Kind::kTrue:
      return true;
    case Kind::kInt:
      return integer();
    case Kind::kUInt:
      return static_cast<uint64_t>(integer());
    case Kind::kDouble:
      return number();
    case Kind::kString:
      return std::string(bytes_);
    case Kind::kJson:
      return nlohmann::json::parse(bytes_, nullptr, false);
  }
  return nullptr;
}

bool operator==(const FieldValue& a, const FieldValue& b) {
  if (a.kind_ == b.kind_ && a.kind_ != Kind::kDouble) return a.bytes_ == b.bytes_;
  return a.json() == b.json();  // 1 == 1.0, as nlohmann::json compares
}

void to_json(nlohmann::json& j, const FieldValue& v) {
  j = v.json();
}

FieldValue FieldRef::value() const {
  auto v = map_.find(name_);
  return v ? *v : FieldValue();
}

FieldRef& FieldRef::operator=(const FieldRef& other) {
  // Copied first: storing may move the bytes the other value points to.
  nlohmann::json v = other.value().json();
  map_.set(name_, v);
  return *this;
}

// ---- FieldMap ---------------------------------------------------------------

FieldMap::FieldMap(const FieldMap& other) : FieldMap() {
  copy_from(other);
}

FieldMap::FieldMap(FieldMap&& other) noexcept
    : buf_(other.buf_),
      count_(other.count_),
      wide_(other.wide_),
      shares_(other.shares_),
      used_(other.used_) {
  other.buf_ = nullptr;
  other.count_ = other.wide_ = other.shares_ = 0;
  other.used_ = 0;
}

FieldMap& FieldMap::operator=(const FieldMap& other) {
  if (this != &other) {
    FieldMap copy(other);
    *this = std::move(copy);
  }
  return *this;
}

FieldMap& FieldMap::operator=(FieldMap&& other) noexcept {
  if (this != &other) {
    std::free(buf_);
    buf_ = other.buf_;
    count_ = other.count_;
    used_ = other.used_;
    wide_ = other.wide_;
    shares_ = other.shares_;
    other.buf_ = nullptr;
    other.count_ = other.wide_ = other.shares_ = 0;
    other.used_ = 0;
  }
  return *this;
}

FieldMap::~FieldMap() {
  std::free(buf_);
}

FieldMap::FieldMap(const nlohmann::json& object) : FieldMap() {
  *this = object;
}

FieldMap& FieldMap::operator=(const nlohmann::json& object) {
  FieldMap out;
  if (object.is_object())
    for (auto it = object.begin(); it != object.end(); ++it) out.set(it.key(), it.value());
  out.shrink();
  *this = std::move(out);
  return *this;
}

namespace {

// Entry codes beside the kinds (field_map.h). A kSharedText value is a
// FieldValues number (one byte), or kPackedMark, a length and a text
// packed_text packed: both keep a text the map would otherwise hold whole.
constexpr uint32_t kSharedText = static_cast<uint32_t>(Kind::kUInt);
constexpr uint32_t kUIntCode = 8;
static_assert(static_cast<int>(Kind::kJson) < 8, "a narrow entry keeps its code in 3 bits");
constexpr uint8_t kPackedMark = 0xFF;
static_assert(FieldValues::kPerField <= kPackedMark, "no FieldValues number is the packed mark");
// Whether a kSharedText value at `at` is a packed text, not a number.
bool packed_at(const char* at) {
  return static_cast<uint8_t>(*at) == kPackedMark;
}
// The first allocation of a map being built (bytes).
constexpr size_t kFirstRoom = 512;
// Maps with at most this many fields are searched by name number, entry by
// entry; larger ones by name, halving.
constexpr uint32_t kScanned = 32;
// Shorter texts are rarely worth packing (the mark and a code or two); a
// record id (18 bytes) packs to 5-7 (decision 227).
constexpr size_t kPackFrom = 18;

// A text's value as a kSharedText entry holds it packed, in `out`; false
// when packing would not make it shorter.
bool packed_value(std::string_view text, std::string& out) {
  thread_local std::string packed;
  thread_local const bool hooked =
      (util::on_thread_give_back([] { std::string().swap(packed); }), true);
  (void)hooked;
  if (text.size() < kPackFrom || !packed_text::pack(text, packed)) return false;
  if (1 + length_prefix::size(packed.size()) + packed.size() >=
      length_prefix::size(text.size()) + text.size())
    return false;
  out.resize(1 + length_prefix::size(packed.size()));
  out[0] = static_cast<char>(kPackedMark);
  length_prefix::write(&out[1], packed.size());
  out += packed;
  return true;
}

}  // namespace

uint32_t FieldMap::name_at(uint32_t i) const {
  if (wide_) return reinterpret_cast<const Wide*>(buf_)[i].name;
  return reinterpret_cast<const Narrow*>(buf_)[i].name;
}

uint32_t FieldMap::offset_at(uint32_t i) const {
  if (wide_) return reinterpret_cast<const Wide*>(buf_)[i].at >> 4;
  return reinterpret_cast<const Narrow*>(buf_)[i].at >> 3;
}

uint32_t FieldMap::code_at(uint32_t i) const {
  if (wide_) return reinterpret_cast<const Wide*>(buf_)[i].at & 0xF;
  return reinterpret_cast<const Narrow*>(buf_)[i].at & 0x7;
}

void FieldMap::write_entry(uint32_t i, uint32_t name, uint32_t offset, uint32_t code) {
  if (wide_)
    reinterpret_cast<Wide*>(buf_)[i] = {name, offset << 4 | code};
  else
    reinterpret_cast<Narrow*>(buf_)[i] = {static_cast<uint16_t>(name),
                                          static_cast<uint16_t>(offset << 3 | code)};
}

void FieldMap::widen() {
  if (wide_) return;
  const size_t bytes = count_ * sizeof(Wide) + used_;
  char* grown = static_cast<char*>(std::malloc(std::max<size_t>(bytes, 1)));
  if (!grown) throw std::bad_alloc();
  Wide* out = reinterpret_cast<Wide*>(grown);
  for (uint32_t i = 0; i < count_; ++i) out[i] = {name_at(i), offset_at(i) << 4 | code_at(i)};
  if (used_) std::memcpy(grown + count_ * sizeof(Wide), values(), used_);
  std::free(buf_);
  buf_ = grown;
  wide_ = true;
}

namespace {

bool sized(uint32_t code) {
  return code == static_cast<uint32_t>(Kind::kString) || code == static_cast<uint32_t>(Kind::kJson);
}

bool eight_bytes(uint32_t code) {
  return code == static_cast<uint32_t>(Kind::kInt) ||
         code == static_cast<uint32_t>(Kind::kDouble) || code == kUIntCode;
}

}  // namespace

size_t FieldMap::value_size(uint32_t i) const {
  const uint32_t code = code_at(i);
  if (sized(code)) {
    const char* at = values() + offset_at(i);
    uint32_t n;
    return static_cast<size_t>(length_prefix::read(at, n) - at) + n;
  }
  if (eight_bytes(code)) return 8;
  if (code != kSharedText) return 0;
  const char* at = values() + offset_at(i);
  if (!packed_at(at)) return 1;
  uint32_t n;
  return static_cast<size_t>(length_prefix::read(at + 1, n) - at) + n;
}

FieldMap::Layout FieldMap::layout() const {
  // Re-encoded: a copy never carries the space replaced values left, and is
  // narrow whenever its names and values allow.
  Layout l;
  l.holders = first_holders();
  size_t value_bytes = 0;
  bool narrow = true;
  for (uint32_t i = 0; i < count_; ++i) {
    if (l.holders.empty() || l.holders[i] == i) value_bytes += value_size(i);
    narrow = narrow && name_at(i) < kNarrowNames && code_at(i) < kUIntCode;
  }
  l.wide = !(narrow && value_bytes < kNarrowOffsets);
  l.bytes = count_ * (l.wide ? sizeof(Wide) : sizeof(Narrow)) + value_bytes;
  return l;
}

void FieldMap::copy_from(const FieldMap& other) {
  const Layout l = other.layout();
  if (l.bytes == 0) {
    wide_ = false;
    return;
  }
  wide_ = l.wide;
  reserve(l.bytes);
  fill_from(other, l);
}

void FieldMap::fill_from(const FieldMap& other, const Layout& l) {
  const auto holder_of = [&](uint32_t i) { return l.holders.empty() ? i : l.holders[i]; };
  wide_ = l.wide;
  count_ = other.count_;
  for (uint32_t i = 0; i < count_; ++i) {
    const uint32_t holder = holder_of(i);
    if (holder != i) {  // already copied: point at that copy
      write_entry(i, other.name_at(i), offset_at(holder), other.code_at(i));
      shares_ = true;
      continue;
    }
    const size_t n = other.value_size(i);
    if (n) std::memcpy(values() + used_, other.values() + other.offset_at(i), n);
    write_entry(i, other.name_at(i), used_, other.code_at(i));
    used_ += static_cast<uint32_t>(n);
  }
}

void FieldMap::copy_into(char* room, const FieldMap& from, const Layout& l) {
  if (from.count_ == 0) return;
  buf_ = room;
  fill_from(from, l);
}

void FieldMap::clear() {
  count_ = wide_ = shares_ = 0;
  used_ = 0;
}

void FieldMap::forget_room() {
  buf_ = nullptr;
  clear();
}

size_t FieldMap::capacity() const {
  return buf_ ? malloc_usable_size(buf_) : 0;
}

std::vector<std::pair<std::string_view, size_t>> FieldMap::value_bytes() const {
  const std::vector<uint32_t> holders = first_holders();
  std::vector<std::pair<std::string_view, size_t>> out;
  out.reserve(count_);
  for (uint32_t i = 0; i < count_; ++i)
    out.emplace_back(FieldNames::name(name_at(i)),
                     holders.empty() || holders[i] == i ? value_size(i) : 0);
  return out;
}

std::vector<uint32_t> FieldMap::first_holders() const {
  if (!shares_) return {};
  // Each entry's offset decoded once, then compared as integers: asking
  // offset_at and value_size for every earlier entry cost more than the
  // comparisons themselves (an inbound report has ~20 fields).
  constexpr uint32_t kNoBytes = UINT32_MAX;  // values of no bytes share nothing
  std::vector<uint32_t> holders(2 * size_t{count_});
  uint32_t* const at = holders.data() + count_;
  for (uint32_t i = 0; i < count_; ++i) {
    const uint32_t code = code_at(i);
    const bool bytes = sized(code) || eight_bytes(code) || code == kSharedText;
    at[i] = bytes ? offset_at(i) : kNoBytes;
    holders[i] = i;
    if (at[i] == kNoBytes) continue;
    for (uint32_t j = 0; j < i; ++j)
      if (at[j] == at[i]) {
        holders[i] = holders[j];
        break;
      }
  }
  holders.resize(count_);
  return holders;
}

void FieldMap::make_room(uint32_t i, bool new_entry, size_t value_bytes) {
  const size_t need = (count_ + (new_entry ? 1 : 0)) * entry_size() + used_ + value_bytes;
  // A record is built a field at a time and laid out afresh when stored
  // (make_record): room for a typical record at once, not a dozen
  // reallocations.
  const size_t cap = capacity();
  if (need > cap) reserve(std::max({need, cap + cap / 2, kFirstRoom}));
  if (!new_entry) return;
  // Shift the values right by one entry, then the later entries.
  const size_t e = entry_size();
  std::memmove(values() + e, values(), used_);
  std::memmove(buf_ + (i + 1) * e, buf_ + i * e, (count_ - i) * e);
  ++count_;
}

void FieldMap::reserve(size_t bytes) {
  if (bytes <= capacity()) return;
  if (bytes > (size_t{1} << 28)) throw std::length_error("a record's fields exceed 256 MB");
  char* grown = static_cast<char*>(std::realloc(buf_, bytes));
  if (!grown) throw std::bad_alloc();
  buf_ = grown;
}

std::pair<std::string_view, FieldValue> FieldMap::entry(uint32_t i) const {
  const char* at = values() + offset_at(i);
  const uint32_t code = code_at(i);
  const uint32_t name = name_at(i);
  if (code == kSharedText && packed_at(at)) {
    uint32_t n;
    const char* packed = length_prefix::read(at + 1, n);
    return {FieldNames::name(name), FieldValue(std::make_shared<const std::string>(
                                        packed_text::unpack(std::string_view(packed, n))))};
  }
  if (code == kSharedText)
    return {FieldNames::name(name),
            FieldValue(Kind::kString, FieldValues::text(name, static_cast<uint8_t>(*at)))};
  std::string_view bytes;
  if (sized(code)) {
    uint32_t n;
    const char* text = length_prefix::read(at, n);
    bytes = std::string_view(text, n);
  } else if (eight_bytes(code)) {
    bytes = std::string_view(at, 8);
  }
  const Kind kind = code == kUIntCode ? Kind::kUInt : static_cast<Kind>(code);
  return {FieldNames::name(name), FieldValue(kind, bytes)};
}

std::pair<uint32_t, bool> FieldMap::locate(std::string_view name) const {
  const NameTable& names = name_table();  // looked up once, not at every step
  uint32_t lo = 0, hi = count_;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    const uint32_t id = name_at(mid);
    int c = std::string_view(names.chunks[id / kChunk][id % kChunk]).compare(name);
    if (c == 0) return {mid, true};
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return {lo, false};
}

std::optional<FieldValue> FieldMap::find(std::string_view name) const {
  if (count_ <= kScanned) {
    // A name no record has is not in the table at all: nothing to search.
    auto id = FieldNames::lookup(name);
    return id ? find_id(*id) : std::nullopt;
  }
  auto [i, found] = locate(name);
  if (!found) return std::nullopt;
  return entry(i).second;
}

std::optional<uint32_t> FieldMap::index_of(uint32_t name_id) const {
  if (wide_) {
    const Wide* entries = reinterpret_cast<const Wide*>(buf_);
    for (uint32_t i = 0; i < count_; ++i)
      if (entries[i].name == name_id) return i;
  } else if (name_id < kNarrowNames) {
    const Narrow* entries = reinterpret_cast<const Narrow*>(buf_);
    for (uint32_t i = 0; i < count_; ++i)
      if (entries[i].name == name_id) return i;
  }
  return std::nullopt;
}

std::optional<FieldValue> FieldMap::find_id(uint32_t name_id) const {
  auto i = index_of(name_id);
  if (!i) return std::nullopt;
  return entry(*i).second;
}

std::optional<std::string_view> FieldMap::text_id(uint32_t name_id, std::string& scratch) const {
  auto i = index_of(name_id);
  if (!i) return std::nullopt;
  const char* at = values() + offset_at(*i);
  const uint32_t code = code_at(*i);
  uint32_t n;
  if (code == kSharedText && packed_at(at)) {
    const char* packed = length_prefix::read(at + 1, n);
    scratch.clear();
    packed_text::unpack_into(std::string_view(packed, n), scratch);
    return std::string_view(scratch);
  }
  if (code == kSharedText) return FieldValues::text(name_id, static_cast<uint8_t>(*at));
  if (code != static_cast<uint32_t>(Kind::kString)) return std::nullopt;
  const char* text = length_prefix::read(at, n);
  return std::string_view(text, n);
}

nlohmann::json FieldMap::value(std::string_view name, const nlohmann::json& fallback) const {
  auto v = find(name);
  return v && !v->is_null() ? v->json() : fallback;
}

void FieldMap::put(std::string_view name, Kind kind, std::string_view bytes) {
  if (bytes.size() > (size_t{1} << 27)) throw std::length_error("a field value exceeds 128 MB");
  // Fields read from text come in name order: appended without a search.
  const bool last = count_ > 0 && FieldNames::name(name_at(count_ - 1)) < name;
  auto [i, found] = last ? std::pair(static_cast<uint32_t>(count_), false) : locate(name);
  const uint32_t id = found ? name_at(i) : FieldNames::intern(name);
  uint32_t code = kind == Kind::kUInt ? kUIntCode : static_cast<uint32_t>(kind);
  char number = 0;
  thread_local std::string packed;
  thread_local const bool hooked =
      (util::on_thread_give_back([] { std::string().swap(packed); }), true);
  (void)hooked;
  if (kind == Kind::kString) {
    if (auto shared = FieldValues::intern(id, bytes)) {
      code = kSharedText;
      number = static_cast<char>(*shared);
      bytes = std::string_view(&number, 1);
    } else if (packed_value(bytes, packed)) {
      code = kSharedText;
      bytes = packed;
    }
  }
  const size_t n = bytes.size() + (sized(code) ? length_prefix::size(bytes.size()) : 0);
  // `bytes` may point into this map (a field copied to another): keep it.
  std::string keep;
  if (bytes.data() >= buf_ && bytes.data() < buf_ + heap_bytes()) {
    keep.assign(bytes);
    bytes = keep;
  }
  if (!wide_ && (id >= kNarrowNames || used_ >= kNarrowOffsets || code >= kUIntCode)) widen();
  make_room(i, !found, n);
  char* dst = values() + used_;
  if (sized(code)) dst = length_prefix::write(dst, bytes.size());
  if (!bytes.empty()) std::memcpy(dst, bytes.data(), bytes.size());
  write_entry(i, id, used_, code);
  used_ += static_cast<uint32_t>(n);
}

void FieldMap::set(std::string_view name, const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded:
      return set(name, nullptr);
    case nlohmann::json::value_t::boolean:
      return set(name, v.get<bool>());
    case nlohmann::json::value_t::string:
      return set(name, std::string_view(v.get_ref<const std::string&>()));
    case nlohmann::json::value_t::number_integer:
      return set(name, v.get<int64_t>());
    case nlohmann::json::value_t::number_unsigned: {
      uint64_t u = v.get<uint64_t>();
      return put(name, Kind::kUInt, std::string_view(reinterpret_cast<const char*>(&u), 8));
    }
    case nlohmann::json::value_t::number_float:
      return set(name, v.get<double>());
    default: {
      std::string text = v.dump();
      return put(name, Kind::kJson, text);
    }
  }
}

void FieldMap::set(std::string_view name, std::string_view text) {
  put(name, Kind::kString, text);
}

void FieldMap::set(std::string_view name, const FieldValue& v) {
  switch (v.kind()) {
    case Kind::kString:
      return put(name, v.kind(), v.str());
    case Kind::kJson: {
      std::string text = v.json().dump();
      return put(name, Kind::kJson, text);
    }
    case Kind::kInt:
    case Kind::kUInt:
    case Kind::kDouble: {
      int64_t raw = v.integer();
      if (v.kind() == Kind::kDouble) {
        double d = v.number();
        std::memcpy(&raw, &d, 8);
      }
      return put(name, v.kind(), std::string_view(reinterpret_cast<const char*>(&raw), 8));
    }
    default:
      return put(name, v.kind(), {});
  }
}

void FieldMap::set(std::string_view name, bool value) {
  put(name, value ? Kind::kTrue : Kind::kFalse, {});
}

void FieldMap::set(std::string_view name, double value) {
  put(name, Kind::kDouble, std::string_view(reinterpret_cast<const char*>(&value), 8));
}

void FieldMap::set(std::string_view name, int64_t value) {
  put(name, Kind::kInt, std::string_view(reinterpret_cast<const char*>(&value), 8));
}

void FieldMap::set(std::string_view name, std::nullptr_t) {
  put(name, Kind::kNull, {});
}

size_t FieldMap::erase(std::string_view name) {
  auto [i, found] = locate(name);
  if (!found) return 0;
  // The value's bytes stay until the next shrink or copy.
  const size_t e = entry_size();
  std::memmove(buf_ + i * e, buf_ + (i + 1) * e, (count_ - i - 1) * e + used_);
  --count_;
  return 1;
}

void FieldMap::set_same(std::string_view name, std::string_view other) {
  const auto [j, has] = locate(other);
  if (!has) return;
  if (code_at(j) == kSharedText && !packed_at(values() + offset_at(j))) {
    // A number among `other`'s own texts (FieldValues keys them by field):
    // stored by its text, one byte when `name` shares it too.
    const std::string text(entry(j).second.str());
    return set(name, text);
  }
  auto [i, found] = locate(name);
  const uint32_t id = found ? name_at(i) : FieldNames::intern(name);
  if (!wide_ && id >= kNarrowNames) widen();
  const uint32_t held = found || i > j ? j : j + 1;  // where `other` is once `name` is in
  make_room(i, !found, 0);
  write_entry(i, id, offset_at(held), code_at(held));
  shares_ = true;
}

void FieldMap::shrink() {
  const std::vector<uint32_t> holders = first_holders();
  size_t live = count_ * entry_size();
  for (uint32_t i = 0; i < count_; ++i)
    if (holders.empty() || holders[i] == i) live += value_size(i);
  if (live == 0) {
    *this = FieldMap();
    return;
  }
  if (count_ * entry_size() + used_ == live) {
    // Nothing replaced left a gap (a map just read or built): trimmed in
    // place, unless malloc's rounding is all that is spare.
    if (capacity() >= live + 16)
      if (char* trimmed = static_cast<char*>(std::realloc(buf_, live))) buf_ = trimmed;
    return;
  }
  // A replaced value left a gap, even of a byte (an inbound report's status,
  // set to New and then Matched): copied into a block of its own. Trimmed in
  // place, such a map left the tail of the block it was built in free between
  // live records, where malloc reused little of it: a million one-time
  // intents took 1,892 MB of RSS instead of 1,468 for the same heap.
  FieldMap copy(*this);
  *this = std::move(copy);
}

nlohmann::json FieldMap::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (uint32_t i = 0; i < count_; ++i) {
    auto [name, v] = entry(i);
    j.emplace(std::string(name), v.json());
  }
  return j;
}

bool operator==(const FieldMap& a, const FieldMap& b) {
  if (a.count_ != b.count_) return false;
  for (uint32_t i = 0; i < a.count_; ++i) {
    auto [an, av] = a.entry(i);
    auto [bn, bv] = b.entry(i);
    if (an != bn || !(av == bv)) return false;
  }
  return true;
}

void to_json(nlohmann::json& j, const FieldMap& m) {
  j = m.to_json();
}

}  // namespace fake_org

namespace fake_org {

namespace {

// A flat object of scalars, as FieldMap::dump() writes them; anything else
// (nested values, unusual spacing is fine) falls back to nlohmann's parser.
class FlatObjectReader {
 public:
  explicit FlatObjectReader(std::string_view text) : s_(text) {}

  // True when the text was read; `flat` false when it needs the full parser.
  bool read(FieldMap& out, bool& flat) {
    flat = true;
    skip();
    if (!eat('{')) return false;
    skip();
    if (eat('}')) return end();
    for (;;) {
      skip();
      if (!string(name_, name_text_)) return false;
      skip();
      if (!eat(':')) return false;
      skip();
      if (!value(out, flat)) return false;
      if (!flat) return false;
      ++fields_;
      skip();
      if (eat('}')) return end();
      if (!eat(',')) return false;
    }
  }
  // Fields read, a name met twice counted twice.
  uint32_t fields() const { return fields_; }

 private:
  bool end() {
    skip();
    return i_ == s_.size();
  }
  void skip() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r'))
      ++i_;
  }
  bool eat(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  bool value(FieldMap& out, bool& flat) {
    if (i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '"') {
      std::string_view text;
      if (!string(text, text_)) return false;
      out.set(name_, text);
      return true;
    }
    if (word("true")) return out.set(name_, true), true;
    if (word("false")) return out.set(name_, false), true;
    if (word("null")) return out.set(name_, nullptr), true;
    if (c == '-' || (c >= '0' && c <= '9')) return number(out);
    flat = false;  // an object or array: nlohmann reads it
    return false;
  }
  bool number(FieldMap& out) {
    const size_t from = i_;
    bool integral = true;
    while (i_ < s_.size() && std::strchr("+-0123456789.eE", s_[i_]) != nullptr) {
      if (s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E') integral = false;
      ++i_;
    }
    const char* first = s_.data() + from;
    const char* last = s_.data() + i_;
    // By nlohmann's rules (a positive integer is unsigned, one too large for
    // 64 bits a double), so a restart changes no value's kind.
    if (integral && *first == '-') {
      int64_t v = 0;
      auto [end, ec] = std::from_chars(first, last, v);
      if (ec == std::errc() && end == last) return out.set(name_, v), true;
    } else if (integral) {
      uint64_t v = 0;
      auto [end, ec] = std::from_chars(first, last, v);
      if (ec == std::errc() && end == last) return out.set(name_, nlohmann::json(v)), true;
    }
    double d = 0;
    auto [end, ec] = std::from_chars(first, last, d);
    if (ec != std::errc() || end != last) return false;
    out.set(name_, d);
    return true;
  }
  // A string's text: a view of the input when it has no escape (nearly
  // every one: read in place, where copying each field's name and value out
  // byte by byte was a quarter of a restart's instructions), else decoded
  // into `into`.
  bool string(std::string_view& out, std::string& into) {
    if (!eat('"')) return false;
    const size_t from = i_;
    i_ = plain_run(i_);
    if (i_ < s_.size() && s_[i_] == '"') {
      out = s_.substr(from, i_ - from);
      ++i_;
      return true;
    }
    into.assign(s_.substr(from, i_ - from));
    if (!decode(into)) return false;
    out = into;
    return true;
  }
  // Where a string's plain run ends: its closing quote, an escape, or a
  // control character (invalid in JSON).
  static bool stops(char c) {
    return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
  }
  // Where the plain run from `i` ends (or the input's size).
  size_t plain_run(size_t i) const {
#ifdef __SSE2__
    // Sixteen bytes a step, where a byte at a time was most of reading a
    // record's text (a million records hold 600 MB of it).
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i control_max = _mm_set1_epi8(0x1F);
    for (; i + 16 <= s_.size(); i += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s_.data() + i));
      const __m128i hit =
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                       _mm_cmpeq_epi8(_mm_min_epu8(v, control_max), v));
      if (const int mask = _mm_movemask_epi8(hit))
        return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    }
#endif
    while (i < s_.size() && !stops(s_[i])) ++i;
    return i;
  }
  // The rest of a string whose text so far is in `into`, from an escape on.
  bool decode(std::string& into) {
    for (;;) {
      const size_t from = i_;
      i_ = plain_run(i_);
      into.append(s_.substr(from, i_ - from));
      if (i_ >= s_.size()) return false;
      if (s_[i_] == '"') {
        ++i_;
        return true;
      }
      if (s_[i_] != '\\') return false;  // a control character
      if (!escape(into)) return false;
    }
  }
  bool escape(std::string& into) {
    if (++i_ >= s_.size()) return false;
    const char c = s_[i_++];
    switch (c) {
      case '"':
      case '\\':
      case '/':
        into += c;
        return true;
      case 'b':
        into += '\b';
        return true;
      case 'f':
        into += '\f';
        return true;
      case 'n':
        into += '\n';
        return true;
      case 'r':
        into += '\r';
        return true;
      case 't':
        into += '\t';
        return true;
      case 'u':
        return unicode(into);
      default:
        return false;
    }
  }
  bool hex4(uint32_t& v) {
    if (i_ + 4 > s_.size()) return false;
    v = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = s_[i_++];
      v <<= 4;
      if (h >= '0' && h <= '9')
        v |= static_cast<uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f')
        v |= static_cast<uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        v |= static_cast<uint32_t>(h - 'A' + 10);
      else
        return false;
    }
    return true;
  }
  bool unicode(std::string& into) {
    uint32_t cp = 0;
    if (!hex4(cp)) return false;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      uint32_t low = 0;
      if (!word("\\u") || !hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
      return false;
    }
    if (cp < 0x80) {
      into += static_cast<char>(cp);
    } else if (cp < 0x800) {
      into += static_cast<char>(0xC0 | (cp >> 6));
      into += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      into += static_cast<char>(0xE0 | (cp >> 12));
      into += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      into += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      into += static_cast<char>(0xF0 | (cp >> 18));
      into += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      into += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      into += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return true;
  }

  std::string_view s_;
  size_t i_ = 0;
  uint32_t fields_ = 0;
  std::string_view name_;  // the input's, or name_text_
  std::string name_text_;  // a name with an escape, decoded
  std::string text_;       // a value with an escape, decoded
};

}  // namespace

bool FieldMap::parse(std::string_view text, FieldMap& out) {
  out.clear();
  // The text's length is about what its fields take encoded: one block
  // sized once, not grown field by field, and kept for the next record.
  out.reserve(std::min<size_t>(text.size(), size_t{1} << 20));
  bool flat = true;
  FlatObjectReader reader(text);
  if (reader.read(out, flat)) {
    if (out.count_ != reader.fields() || out.shares_)
      out.shrink();  // a name met twice left its first value's bytes behind
    return true;
  }
  // Nested values, or text the reader above does not take: the full parser
  // decides (and judges UTF-8 and duplicate names as it always did).
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return false;
  out = j;
  return true;
}

}  // namespace fake_org
