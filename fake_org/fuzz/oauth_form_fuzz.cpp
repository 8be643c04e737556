// The OAuth endpoints' form and query parsing with any bytes: the first byte
// picks the endpoint (token, revoke, authorize, identity, userinfo), the rest
// is the form body or the query string, as a client would send it.
#include <cstddef>
#include <cstdint>

#include "fuzz_org.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fake_org::fuzz::FuzzOrg org;
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  httplib::Request req;
  switch (data[0] % 5) {
    case 0:
    case 1:
      req.method = "POST";
      req.path = data[0] % 5 == 0 ? "/services/oauth2/token" : "/login/services/oauth2/revoke";
      req.set_header("Content-Type", "application/x-www-form-urlencoded");
      req.body = text;
      break;
    case 2:
      req.method = "GET";
      req.path = "/services/oauth2/authorize";
      break;
    case 3:
      req.method = "GET";
      req.path = "/id/00D7Q00000LoCaLUAV/0055J0000000002QAA";
      break;
    default:
      req.method = "GET";
      req.path = "/services/oauth2/userinfo";
      req.set_header("Authorization", "Bearer " + text.substr(0, 200));
      break;
  }
  if (req.method == "GET") {
    req.target = req.path + "?" + text;
    httplib::detail::parse_query_text(text, req.params);
  }
  org.serve(req);
  return 0;
}
