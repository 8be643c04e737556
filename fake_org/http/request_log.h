#pragma once
// Per-request facts for the one log line each request gets. A request is
// served start to end by one worker thread, so thread-local storage carries
// them from routing to the logger without touching the request object.
#include <chrono>
#include <string>

namespace fake_org::http {

struct RequestLogContext {
  std::chrono::steady_clock::time_point start;
  std::string payment_intent_id;  // set by handlers that know one
};

RequestLogContext& request_log_context();

}  // namespace fake_org::http
