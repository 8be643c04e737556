// POST /Payment (the older interface) with any bytes as its body. It always
// answers 200 (decision 31); a refused payment writes no record.
#include <cstddef>
#include <cstdint>

#include "fuzz_org.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fake_org::fuzz::FuzzOrg org;
  httplib::Request req;
  req.method = "POST";
  req.path = org.base() + "/Payment";
  req.set_header("Authorization", "Bearer " + org.token());
  req.set_header("Content-Type", "application/json");
  req.body.assign(reinterpret_cast<const char*>(data), size);
  const size_t before = fake_org::fuzz::record_count(org.org());
  httplib::Response res = org.serve(req);
  const auto body = nlohmann::json::parse(res.body, nullptr, false);
  const bool refused = !body.is_object() || body.value("IsSuccess", false) == false;
  if (refused && fake_org::fuzz::record_count(org.org()) != before)
    fake_org::fuzz::broken_promise("a refused /Payment wrote records", res.body);
  org.reset_every(500);
  return 0;
}
