#pragma once
// Memory for tables that live as long as the process and only grow (the
// values a field repeats, decision 126): carved from mappings of its own,
// never freed. Made among a busy run's short-lived blocks in malloc's heap,
// such tables were the few blocks that outlived a reset and pinned the
// pages around them (decision 95).
//
// Locking rule: one mutex over the current mapping's unused end; mappings
// are made outside it.
#include <cstddef>
#include <string_view>

namespace fake_org::util {

// `n` bytes aligned to `align` (a power of two, at most 4096); never freed.
// Throws std::bad_alloc when no mapping can be made.
void* permanent_allocate(size_t n, size_t align);

// A copy of `text` that lives as long as the process.
std::string_view permanent_copy(std::string_view text);

// Bytes handed out so far (memory figures).
size_t permanent_bytes() noexcept;

}  // namespace fake_org::util
