#pragma once
// The curl command line that sends a request again, for failure reports. The
// bearer token is written as $TOKEN (in double quotes so the shell expands it);
// every other argument is single-quoted verbatim.
#include <string>

#include "net/http_types.h"

namespace runner {

// `token` is replaced by $TOKEN wherever it appears (header or body).
std::string to_curl(const HttpRequest& request, const std::string& token = "");
std::string shell_quote(const std::string& s);

}  // namespace runner
