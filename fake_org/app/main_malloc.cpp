// How fake-org sets up glibc's malloc before anything allocates (decision 95).
#include "app/main_malloc.h"

#include <malloc.h>

#include <cstdlib>

namespace fake_org::app {

void set_up_malloc() {
  // glibc reads its MALLOC_*_ variables itself: a user who set one keeps it.
  // Each thread that allocates under contention gets an arena of its own, up
  // to 8 per core, and an arena keeps what was freed in it: with a worker per
  // connection the process grew by gigabytes under many concurrent admin
  // reads.
  if (std::getenv("MALLOC_ARENA_MAX") == nullptr) mallopt(M_ARENA_MAX, 4);
  // Left to itself glibc raises both thresholds each time a large block is
  // freed (up to 32 and 64 MB): an org's growing tables then come from the
  // arenas, and a thread's arena never gives back the top it grew into,
  // which malloc_trim does not reach. Fixed, they keep large blocks mapped
  // apart and arena tops short.
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  if (std::getenv("MALLOC_TRIM_THRESHOLD_") == nullptr) mallopt(M_TRIM_THRESHOLD, 128 * 1024);
}

}  // namespace fake_org::app
