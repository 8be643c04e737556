// POST /PaymentIntent with any bytes as its JSON body, through the real
// request path (fuzz_org.h). A refused request writes no record.
#include <cstddef>
#include <cstdint>

#include "fuzz_org.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fake_org::fuzz::FuzzOrg org;
  httplib::Request req;
  req.method = "POST";
  req.path = org.base() + "/PaymentIntent";
  req.set_header("Authorization", "Bearer " + org.token());
  req.set_header("Content-Type", "application/json");
  req.body.assign(reinterpret_cast<const char*>(data), size);
  const size_t before = fake_org::fuzz::record_count(org.org());
  httplib::Response res = org.serve(req);
  if (res.status >= 400 && fake_org::fuzz::record_count(org.org()) != before)
    fake_org::fuzz::broken_promise("a refused payment intent wrote records", res.body);
  org.reset_every(500);
  return 0;
}
