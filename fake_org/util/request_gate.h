#pragma once
// At most `limit` requests run their handlers at once; the others wait their
// turn in arrival order. A thread per connection means hundreds of request
// threads runnable at once under hundreds of connections: on a few cores
// each then waits in the kernel's run queue behind all the others, and one
// that slept (on a lock, preempted) waits longest, so latency spread out
// (p90 at 512 connections 3 times the p50). Admitted in order, a few at a
// time, requests take about the mean time each (decision 133).
//
// A handler that waits for another request to this same server (the PSP's
// callback) steps out of the gate while it waits (StepOut), so that request
// can be admitted.
//
// Locking rule: mu_ guards running_ and waiting_; a waiter sleeps on its own
// futex word, set by the thread that hands it the place.
#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>

namespace fake_org::util {

class RequestGate {
 public:
  // 0: no limit (every request runs at once).
  explicit RequestGate(unsigned limit) : limit_(limit) {}
  RequestGate(const RequestGate&) = delete;
  RequestGate& operator=(const RequestGate&) = delete;

  // A place in the gate for one request on this thread, for its lifetime.
  class Admission {
   public:
    explicit Admission(RequestGate& gate);
    ~Admission();
    Admission(const Admission&) = delete;
    Admission& operator=(const Admission&) = delete;

   private:
    friend class RequestGate;
    RequestGate& gate_;
    Admission* outer_;  // this thread's admission around it (a nested server), or null
  };
  // Gives this thread's place up while it waits for something only another
  // request can bring (nothing when the thread holds none); takes a place
  // again, in turn, when it ends.
  class StepOut {
   public:
    StepOut();
    ~StepOut();
    StepOut(const StepOut&) = delete;
    StepOut& operator=(const StepOut&) = delete;

   private:
    Admission* admission_;
  };

  unsigned limit() const { return limit_; }
  // For tests: requests running and waiting now.
  unsigned running_for_test() const;
  size_t waiting_for_test() const;

 private:
  struct Waiter {
    std::atomic<uint32_t> admitted{0};
  };
  void enter();
  void leave();

  const unsigned limit_;
  mutable std::mutex mu_;
  unsigned running_ = 0;
  std::deque<Waiter*> waiting_;
};

}  // namespace fake_org::util
