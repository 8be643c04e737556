#pragma once
// A cap on the whole process's resident memory (fake-org --max-memory): past
// it, a write that would add records is refused with the platform's storage
// limit error, as an org's own org.max_records does (decision 199).
//
// Why sampled: reading /proc/self/statm is a system call and some parsing, too
// dear for every write and not to be done under an org's write lock. A write
// reads only the flag the last sample left; sample_memory() refreshes it at
// most every kSampleInterval, and the server calls it as each request starts,
// before any lock is taken.
//
// Locking rule: none. The cap, the flag and the sample's time are atomics;
// two threads sampling at once both read /proc, and either answer is current.
#include <chrono>
#include <cstdint>
#include <optional>

namespace fake_org::util {

inline constexpr std::chrono::milliseconds kSampleInterval{10};

// Bytes of resident memory the process may hold; 0 (the default) is no cap.
void set_memory_cap(uint64_t bytes);
uint64_t memory_cap();

// The process's resident memory now, or nullopt where /proc has no statm.
std::optional<uint64_t> resident_memory();

// Reads resident memory again when the last reading is older than
// kSampleInterval (or at once with `force`), and sets the flag below.
void sample_memory(bool force = false);

// The last sample was past the cap (always false without a cap).
bool over_memory_cap();
// The resident memory that last sample read (0 before any).
uint64_t sampled_memory();

}  // namespace fake_org::util
