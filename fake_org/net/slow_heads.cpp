#include "slow_heads.h"

namespace fake_org::net {

bool SlowHeads::enter(const std::string& peer) {
  std::lock_guard lock(mu_);
  size_t& n = held_[peer];
  if (n >= per_peer_) {
    if (n == 0) held_.erase(peer);
    return false;
  }
  ++n;
  return true;
}

void SlowHeads::leave(const std::string& peer) {
  std::lock_guard lock(mu_);
  auto it = held_.find(peer);
  if (it == held_.end()) return;
  if (--it->second == 0) held_.erase(it);  // the map holds only peers with slow heads
}

size_t SlowHeads::held(const std::string& peer) const {
  std::lock_guard lock(mu_);
  auto it = held_.find(peer);
  return it == held_.end() ? 0 : it->second;
}

}  // namespace fake_org::net
