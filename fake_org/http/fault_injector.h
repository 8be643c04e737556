#pragma once
// Injected faults (POST /__admin/faults): the next N API requests matching a
// method and path answer a given status and body instead of running their
// operation, so a client's error handling can be tested without breaking the
// org (as stripe-mock's and WireMock's stubbed failures). No delays: the
// house rule is no sleeping on worker threads (decisions 48).
//
// Locking rule: one std::mutex guards the faults; `active_` (their number) is
// also an atomic read without the lock, so a request with no fault set costs
// one atomic load. A fault added while a request is being routed may or may
// not apply to that request; each fault is taken at most `times` times.
#include <atomic>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/core/errors.h"

namespace fake_org::http {

struct Fault {
  std::string method;  // "GET", "POST", ...; "*" for any
  // Relative to the API base: "/PaymentIntent" exactly, or "/PaymentIntent/*"
  // for any path under it.
  std::string path;
  int status = 503;
  nlohmann::json body;  // the answer's JSON body
  int remaining = 1;    // answers still to give
};

void to_json(nlohmann::json& j, const Fault& f);

// A fault from POST /__admin/faults' body, checked; `api_base` is stripped
// from a path given whole.
Result<Fault> fault_from_json(const nlohmann::json& j, std::string_view api_base);

class FaultInjector {
 public:
  // Replaces a fault of the same method and path.
  void add(Fault fault);
  // The fault for this request, counted down (and forgotten at zero); nullopt
  // when none matches. `path` is relative to the API base. Exact paths win
  // over "/*" ones, deeper over shallower, a named method over "*".
  std::optional<Fault> take(std::string_view method, std::string_view path);
  std::vector<Fault> list() const;
  void clear();

 private:
  std::optional<Fault> take_locked(const std::string& key);

  std::atomic<size_t> active_{0};
  mutable std::mutex mu_;
  std::map<std::string, Fault> by_key_;  // "METHOD path"
};

}  // namespace fake_org::http
