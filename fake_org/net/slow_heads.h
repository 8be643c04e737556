#pragma once
// How many connections each peer address holds a worker with while their
// request's head is still arriving. A head that trickles in holds a pool
// thread until it is whole (or the head timeout ends it); one address
// opening thousands of such connections would hold every worker, and new
// clients would wait. Past the cap a peer's next slow head is refused at
// once (ConnectionServer answers 503 and closes).
//
// Locking rule: mu_ guards held_; each call holds it for one hash lookup.
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace fake_org::net {

class SlowHeads {
 public:
  explicit SlowHeads(size_t per_peer) : per_peer_(per_peer) {}
  // Counts one more for `peer`; false (nothing counted) at the cap.
  bool enter(const std::string& peer);
  void leave(const std::string& peer);
  size_t held(const std::string& peer) const;
  size_t per_peer() const { return per_peer_; }

 private:
  const size_t per_peer_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, size_t> held_;
};

}  // namespace fake_org::net
