#include "app/org_reaper.h"

#include <algorithm>
#include <vector>

namespace fake_org::app {

OrgReaper::~OrgReaper() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void OrgReaper::schedule(const std::string& name, std::chrono::steady_clock::time_point when) {
  std::lock_guard lock(mu_);
  due_[name] = when;
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  wake_.notify_all();  // it may be due before the one the thread waits for
}

void OrgReaper::cancel(const std::string& name) {
  std::lock_guard lock(mu_);
  due_.erase(name);
}

void OrgReaper::run() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    if (due_.empty()) {
      wake_.wait(lock);
      continue;
    }
    const auto next = std::min_element(due_.begin(), due_.end(), [](const auto& a, const auto& b) {
                        return a.second < b.second;
                      })->second;
    if (std::chrono::steady_clock::now() < next) {
      wake_.wait_until(lock, next);
      continue;
    }
    std::vector<std::string> expired;
    const auto now = std::chrono::steady_clock::now();
    for (auto it = due_.begin(); it != due_.end();) {
      if (it->second <= now) {
        expired.push_back(it->first);
        it = due_.erase(it);
      } else {
        ++it;
      }
    }
    // Without the lock: deleting takes the registry's, which may be waiting
    // to cancel() here.
    lock.unlock();
    for (const auto& name : expired) expire_(name);
    lock.lock();
  }
}

}  // namespace fake_org::app
