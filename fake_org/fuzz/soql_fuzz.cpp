// GET /services/data/vNN.0/query?q= with any text: the SOQL parser, the
// planner and the evaluator over the default org's records.
#include <cstddef>
#include <cstdint>

#include "fuzz_org.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fake_org::fuzz::FuzzOrg org;
  httplib::Request req;
  req.method = "GET";
  req.path = "/services/data/v59.0/query";
  req.set_header("Authorization", "Bearer " + org.token());
  req.params.emplace("q", std::string(reinterpret_cast<const char*>(data), size));
  req.target = req.path + "?q=...";
  org.serve(req);
  return 0;
}
