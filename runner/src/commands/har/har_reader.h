#pragma once
// Reading HAR 1.2 files (browser dev tools, proxies) into recorded exchanges
// for the generaliser: log.entries[].request/response, bodies from
// postData.text (or postData.params) and content.text (base64 when its
// `encoding` says so). Only requests to the API base are kept, plus the OAuth
// token requests on the same origin.
#include <stdexcept>
#include <string>
#include <vector>

#include "commands/record/exchange.h"

namespace runner::har {

class HarError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct HarImport {
  std::vector<record::RecordedExchange> exchanges;
  std::vector<std::string> notes;  // entries left out and why
  std::string api_path;            // the base URL's path, e.g. /services/apexrest/cpm/v2
};

// `base`: the API base (https://host/services/apexrest/cpm/v2) or the org's
// instance URL (then the default API path applies). Throws HarError.
HarImport read_har(const std::string& text, const std::string& base);

std::string base64_decode(const std::string& text);  // throws HarError

}  // namespace runner::har
