#pragma once
// One request and its answer as a recording saw it (through the proxy or in a
// HAR file), before generalisation: everything literal, secrets included. It
// never leaves memory; only the generalised scenario is written.
#include <string>

#include "net/http_types.h"

namespace runner::record {

struct RecordedExchange {
  std::string method = "GET";
  std::string
      target;  // path?query on the org's instance, e.g. /services/apexrest/cpm/v2/PaymentMethods
  Headers request_headers;
  std::string request_body;
  // The request was authenticated (the client sent Authorization, or the
  // proxy added its own token); replays let the runner authenticate it.
  bool authenticated = false;
  int status = 0;
  Headers response_headers;
  std::string response_body;
};

}  // namespace runner::record
