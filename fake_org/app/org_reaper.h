#pragma once
// Deletes orgs whose time to live ran out (app/org_lease.h), on a thread of
// its own that sleeps until the next one is due: an org a killed client left
// behind goes even when no request ever comes again.
//
// Locking rule: mu_ guards due_ and stopping_. `expire` is called without
// mu_ held, so it may take the registry's lock and, under it, call
// cancel(): the order is always the registry's lock, then mu_.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace fake_org::app {

class OrgReaper {
 public:
  using Expire = std::function<void(const std::string& name)>;
  explicit OrgReaper(Expire expire) : expire_(std::move(expire)) {}
  // Joins the thread: after it returns, `expire` is not called again.
  ~OrgReaper();
  OrgReaper(const OrgReaper&) = delete;
  OrgReaper& operator=(const OrgReaper&) = delete;

  // `name` is deleted at `when` unless cancelled first; the thread starts
  // with the first org that has a time to live.
  void schedule(const std::string& name, std::chrono::steady_clock::time_point when);
  void cancel(const std::string& name);

 private:
  void run();

  Expire expire_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::map<std::string, std::chrono::steady_clock::time_point> due_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace fake_org::app
