#include "util/shared_mutex.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "testing/eventually.h"

using fake_org::util::WriterFirstSharedMutex;

TEST_CASE("WriterFirstSharedMutex shares between readers and excludes a writer", "[shared_mutex]") {
  WriterFirstSharedMutex mu;
  {
    std::shared_lock a(mu);
    CHECK(mu.try_lock_shared());  // a second reader, no writer waiting
    mu.unlock_shared();
    CHECK_FALSE(mu.try_lock());
  }
  {
    std::unique_lock w(mu);
    CHECK_FALSE(mu.try_lock_shared());
  }
  CHECK(mu.try_lock());
  mu.unlock();
}

namespace {

// A reader holds `mu` while another thread takes it with `lock_writer`; once
// a new reader is turned away, the writer goes before that reader.
template <typename Mutex, typename LockWriter>
void check_writer_goes_before_later_readers(Mutex& mu, LockWriter lock_writer) {
  std::atomic<int> order{0};
  std::atomic<int> writer_at{0};
  std::atomic<int> reader_at{0};
  mu.lock_shared();
  std::thread writer([&] {
    lock_writer();
    writer_at = ++order;
    mu.unlock();
  });
  // CHECK, not REQUIRE: the threads are joined below either way.
  CHECK(fake_org::testing::eventually([&] {
    if (!mu.try_lock_shared()) return true;
    mu.unlock_shared();
    return false;
  }));
  std::thread reader([&] {
    std::shared_lock r(mu);
    reader_at = ++order;
  });
  mu.unlock_shared();
  writer.join();
  reader.join();
  CHECK(writer_at == 1);
  CHECK(reader_at == 2);
}

}  // namespace

TEST_CASE("WriterFirstSharedMutex lets a waiting writer go before later readers",
          "[shared_mutex]") {
  // With std::shared_mutex a new reader would join the first, and the
  // writer would wait for both.
  WriterFirstSharedMutex mu;
  check_writer_goes_before_later_readers(mu, [&] { mu.lock(); });
}

TEST_CASE("WriterFirstSharedMutex wakes readers that slept behind a writer", "[shared_mutex]") {
  // The writer holds the lock long past the readers' spinning, so they
  // sleep on the futex; its unlock must wake every one of them.
  WriterFirstSharedMutex mu;
  constexpr int kReaders = 8;
  std::atomic<int> in{0};
  mu.lock();
  std::vector<std::thread> readers;
  for (int i = 0; i < kReaders; ++i)
    readers.emplace_back([&] {
      std::shared_lock r(mu);
      ++in;
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(in == 0);
  mu.unlock();
  for (auto& t : readers) t.join();
  CHECK(in == kReaders);
}

TEST_CASE("WriterFirstSharedMutex wakes a writer that slept waiting for readers",
          "[shared_mutex]") {
  WriterFirstSharedMutex mu;
  std::atomic<bool> written{false};
  mu.lock_shared();
  mu.lock_shared();
  std::thread writer([&] {
    std::unique_lock w(mu);
    written = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  mu.unlock_shared();
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK_FALSE(written);  // one reader is still in
  mu.unlock_shared();
  writer.join();
  CHECK(written);
}

TEST_CASE("WriterFirstSharedMutex excludes under many threads", "[shared_mutex][concurrency]") {
  // Writers bump two counters apart; a reader that ever sees them differ
  // saw a writer's half-done work.
  WriterFirstSharedMutex mu;
  long a = 0, b = 0;
  std::atomic<int> torn{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20000; ++i) {
        if ((i + t) % 4 == 0) {
          std::unique_lock w(mu);
          ++a;
          ++b;
        } else {
          std::shared_lock r(mu);
          if (a != b) ++torn;
        }
      }
    });
  for (auto& t : threads) t.join();
  CHECK(torn == 0);
  CHECK(a == b);
  CHECK(a == 6 * 5000);
}
