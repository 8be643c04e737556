#pragma once
// Signed PSP callbacks. A real PSP signs what it posts to the merchant, so
// the merchant can tell its callbacks from anyone else's; the simulated PSP
// does the same, and POST /psp/callback refuses what it did not sign.
//
//   X-PSP-Signature: t=<unix seconds, wall clock>,v1=<hex HMAC-SHA256(secret, t + "." + body)>
//
// (Stripe's layout; the MAC is the webhooks' v1 scheme, webhook_signature.h.)
// The secret is random per org and made when the org starts (Org); it never
// leaves the process, so only the simulated PSP can sign. The timestamp is
// wall-clock time, not org time (the org clock may be days ahead); a callback
// more than kPspSignatureTolerance away from now is stale (replay guard).
// Verification compares in constant time.
#include <cstdint>
#include <string>
#include <string_view>

namespace fake_org {

inline constexpr const char* kPspSignatureHeader = "X-PSP-Signature";
inline constexpr int64_t kPspSignatureTolerance = 300;  // seconds, either side

// "t=<unix_seconds>,v1=<hex>" over the exact body bytes.
std::string psp_signature(std::string_view secret, int64_t unix_seconds, std::string_view body);

enum class PspSignatureCheck { kValid, kMissing, kMalformed, kStale, kMismatch };

PspSignatureCheck verify_psp_signature(std::string_view secret, std::string_view header,
                                       std::string_view body, int64_t now_unix_seconds);

// Why a callback was refused, for the 401's error_message.
std::string describe(PspSignatureCheck check);

// Wall-clock unix seconds.
int64_t unix_now();

}  // namespace fake_org
