#pragma once
// Per-request facts for the one log line each request gets. A request is
// served start to end by one worker thread, so thread-local storage carries
// them from routing to the logger without touching the request object.
#include <chrono>
#include <string>

#include "domain/clock.h"

namespace fake_org::http {

struct RequestLogContext {
  std::chrono::steady_clock::time_point start;
  std::string payment_intent_id;  // set by handlers that know one
  // For the request journal: when the request arrived, by both clocks, and
  // whether a fault injected by the admin API answered it.
  std::chrono::system_clock::time_point received_wall;
  TimePoint received_at{};
  bool injected_fault = false;
  bool routed = false;           // the pre-routing handler ran for this request
  std::string content_encoding;  // taken off the request (content_encoding.h)
};

RequestLogContext& request_log_context();

}  // namespace fake_org::http
