#include "request_gate.h"

#include "futex.h"

namespace fake_org::util {

namespace {

thread_local RequestGate::Admission* current = nullptr;

}  // namespace

void RequestGate::enter() {
  if (limit_ == 0) return;
  Waiter me;
  {
    std::lock_guard lock(mu_);
    if (waiting_.empty() && running_ < limit_) {
      ++running_;
      return;
    }
    waiting_.push_back(&me);
  }
  while (me.admitted.load(std::memory_order_acquire) == 0) futex_wait(me.admitted, 0);
}

void RequestGate::leave() {
  if (limit_ == 0) return;
  Waiter* next = nullptr;
  {
    std::lock_guard lock(mu_);
    if (waiting_.empty()) {
      --running_;
      return;
    }
    next = waiting_.front();  // the place passes to it: running_ stays
    waiting_.pop_front();
  }
  // Its word, then the wake-up: once it sees the word it may return and its
  // Waiter (on its stack) end, so nothing of it is read after the store; a
  // wake-up on the address then finds no sleeper.
  next->admitted.store(1, std::memory_order_release);
  futex_wake(next->admitted, 1);
}

unsigned RequestGate::running_for_test() const {
  std::lock_guard lock(mu_);
  return running_;
}

size_t RequestGate::waiting_for_test() const {
  std::lock_guard lock(mu_);
  return waiting_.size();
}

RequestGate::Admission::Admission(RequestGate& gate) : gate_(gate), outer_(current) {
  gate_.enter();
  current = this;
}

RequestGate::Admission::~Admission() {
  current = outer_;
  gate_.leave();
}

RequestGate::StepOut::StepOut() : admission_(current) {
  if (admission_) admission_->gate_.leave();
}

RequestGate::StepOut::~StepOut() {
  if (admission_) admission_->gate_.enter();
}

}  // namespace fake_org::util
