#include "util/shared_mutex.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <shared_mutex>
#include <thread>

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

using fake_org::util::PatientWriterSharedMutex;

TEST_CASE("PatientWriterSharedMutex lets readers in while a patient writer waits",
          "[shared_mutex]") {
  PatientWriterSharedMutex mu;
  std::atomic<bool> written{false};
  mu.lock_shared();
  std::thread writer([&] {
    mu.lock_patiently(std::chrono::seconds(60));
    written = true;
    mu.unlock();
  });
  // Readers keep coming in beside the first while the writer waits for them.
  for (int i = 0; i < 20; ++i) {
    REQUIRE(mu.try_lock_shared());
    mu.unlock_shared();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK_FALSE(written);
  mu.unlock_shared();  // the last reader leaves: the writer needs no deadline
  writer.join();
  CHECK(written);
}

TEST_CASE("PatientWriterSharedMutex turns readers away once the patience is spent",
          "[shared_mutex]") {
  PatientWriterSharedMutex mu;
  check_writer_goes_before_later_readers(mu,
                                         [&] { mu.lock_patiently(std::chrono::milliseconds(1)); });
}

TEST_CASE("PatientWriterSharedMutex's lock() turns readers away at once", "[shared_mutex]") {
  // With the 60 s patience of the first test it would let them in for the
  // 10 s the check waits.
  PatientWriterSharedMutex mu;
  check_writer_goes_before_later_readers(mu, [&] { mu.lock(); });
}
