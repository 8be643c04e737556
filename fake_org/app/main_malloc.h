#pragma once
// glibc malloc's settings for the fake-org executable (decision 95): called
// first thing in main, before any thread starts.

namespace fake_org::app {

// At most 4 malloc arenas, and fixed thresholds for mapping blocks apart
// and trimming an arena's top, each unless its MALLOC_*_ variable is set.
void set_up_malloc();

}  // namespace fake_org::app
