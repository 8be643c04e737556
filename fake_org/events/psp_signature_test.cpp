#include "events/psp_signature.h"

#include <catch2/catch.hpp>

#include "events/webhook_signature.h"

using namespace fake_org;

namespace {
const std::string kBody = R"({"outcome":"success","session":"cs_1"})";
const int64_t kNow = 1767225600;
}  // namespace

TEST_CASE("a PSP signature is t=<seconds>,v1=<HMAC-SHA256 over t.body>", "[psp]") {
  const std::string sig = psp_signature("key", kNow, kBody);
  CHECK(sig == "t=1767225600," + webhook_signature("key", "1767225600", kBody));
  CHECK(verify_psp_signature("key", sig, kBody, kNow) == PspSignatureCheck::kValid);
  // Within the tolerance either side.
  CHECK(verify_psp_signature("key", sig, kBody, kNow + kPspSignatureTolerance) ==
        PspSignatureCheck::kValid);
  CHECK(verify_psp_signature("key", sig, kBody, kNow - kPspSignatureTolerance) ==
        PspSignatureCheck::kValid);
}

TEST_CASE("missing, malformed, stale, altered or foreign signatures are refused", "[psp]") {
  const std::string sig = psp_signature("key", kNow, kBody);
  CHECK(verify_psp_signature("key", "", kBody, kNow) == PspSignatureCheck::kMissing);
  for (const char* bad :
       {"v1=abc", "t=,v1=00", "t=12x,v1=", "t=1767225600",
        "t=1767225600,v2=0000000000000000000000000000000000000000000000000000000000000000",
        "t=1767225600,v1=00"}) {
    CAPTURE(bad);
    CHECK(verify_psp_signature("key", bad, kBody, kNow) == PspSignatureCheck::kMalformed);
  }
  CHECK(verify_psp_signature("key", sig, kBody, kNow + kPspSignatureTolerance + 1) ==
        PspSignatureCheck::kStale);
  CHECK(verify_psp_signature("key", sig, kBody, kNow - kPspSignatureTolerance - 1) ==
        PspSignatureCheck::kStale);
  std::string altered = kBody;
  altered.replace(altered.find("success"), 7, "failure");
  CHECK(verify_psp_signature("key", sig, altered, kNow) == PspSignatureCheck::kMismatch);
  CHECK(verify_psp_signature("other key", sig, kBody, kNow) == PspSignatureCheck::kMismatch);
  // A signature from another time is not this one's.
  std::string moved = "t=1767225601" + sig.substr(sig.find(','));
  CHECK(verify_psp_signature("key", moved, kBody, kNow) == PspSignatureCheck::kMismatch);
  CHECK(describe(PspSignatureCheck::kMissing).find(kPspSignatureHeader) != std::string::npos);
}
