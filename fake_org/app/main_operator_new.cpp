// The executables' global operator new and delete, through a per-thread cache
// of small blocks (util/thread_cache.h, decision 121). Linked into fake-org
// and scenario-runner only, never into a library: a program embedding
// fake_org keeps its own allocator.
//
// Sanitizer builds keep their runtime's operators, which check what these
// would hide (a mismatched delete, a use after free of a cached block).
#include <new>

#include "util/thread_cache.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define FAKE_ORG_KEEP_RUNTIME_NEW 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FAKE_ORG_KEEP_RUNTIME_NEW 1
#endif

#ifndef FAKE_ORG_KEEP_RUNTIME_NEW

namespace {

inline void* allocate_or_throw(std::size_t n) {
  for (;;) {
    if (void* p = fake_org::util::thread_cached_allocate(n)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

}  // namespace

void* operator new(std::size_t n) {
  return allocate_or_throw(n);
}
void* operator new[](std::size_t n) {
  return allocate_or_throw(n);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return fake_org::util::thread_cached_allocate(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return fake_org::util::thread_cached_allocate(n);
}

void operator delete(void* p) noexcept {
  fake_org::util::thread_cached_release(p);
}
void operator delete[](void* p) noexcept {
  fake_org::util::thread_cached_release(p);
}
void operator delete(void* p, std::size_t n) noexcept {
  fake_org::util::thread_cached_release(p, n);
}
void operator delete[](void* p, std::size_t n) noexcept {
  fake_org::util::thread_cached_release(p, n);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  fake_org::util::thread_cached_release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  fake_org::util::thread_cached_release(p);
}

#endif
