#pragma once
// Debian's cpp-httplib listens with a backlog of 5: a burst of connections
// overflows the queue and clients wait a second for a SYN retransmit.

namespace fake_org::util {

// Listens again, with a queue of SOMAXCONN, on this process's listening
// socket bound to `port` (httplib's own, found by its port: Linux takes a
// second listen() as a new backlog). Call after binding, before serving.
void widen_listen_backlog(int port);

}  // namespace fake_org::util
