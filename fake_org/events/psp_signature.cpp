#include "events/psp_signature.h"

#include <cctype>
#include <chrono>

#include "events/webhook_signature.h"
#include "util/crypto.h"

namespace fake_org {

std::string psp_signature(std::string_view secret, int64_t unix_seconds, std::string_view body) {
  const std::string ts = std::to_string(unix_seconds);
  return "t=" + ts + "," + webhook_signature(secret, ts, body);
}

PspSignatureCheck verify_psp_signature(std::string_view secret, std::string_view header,
                                       std::string_view body, int64_t now_unix_seconds) {
  if (header.empty()) return PspSignatureCheck::kMissing;
  // Exactly "t=<digits>,v1=<64 hex>": anything else is malformed.
  if (header.substr(0, 2) != "t=") return PspSignatureCheck::kMalformed;
  const size_t comma = header.find(',');
  if (comma == std::string_view::npos) return PspSignatureCheck::kMalformed;
  const std::string_view ts = header.substr(2, comma - 2);
  const std::string_view mac = header.substr(comma + 1);
  if (ts.empty() || ts.size() > 12) return PspSignatureCheck::kMalformed;
  for (char c : ts)
    if (!std::isdigit(static_cast<unsigned char>(c))) return PspSignatureCheck::kMalformed;
  if (mac.substr(0, 3) != "v1=" || mac.size() != 3 + 64) return PspSignatureCheck::kMalformed;
  const int64_t t = std::stoll(std::string(ts));
  const int64_t skew = t > now_unix_seconds ? t - now_unix_seconds : now_unix_seconds - t;
  if (skew > kPspSignatureTolerance) return PspSignatureCheck::kStale;
  const std::string expected = webhook_signature(secret, ts, body);
  return crypto::constant_time_equal(expected, mac) ? PspSignatureCheck::kValid
                                                    : PspSignatureCheck::kMismatch;
}

std::string describe(PspSignatureCheck check) {
  const std::string header = kPspSignatureHeader;
  switch (check) {
    case PspSignatureCheck::kValid:
      return "valid";
    case PspSignatureCheck::kMissing:
      return "The PSP callback is not signed: " + header +
             " is missing. Only the simulated PSP reports payments; pay through the hosted "
             "page or POST /__admin/psp/{session}/complete";
    case PspSignatureCheck::kMalformed:
      return header + " is malformed: expected t=<unix seconds>,v1=<hex HMAC-SHA256>";
    case PspSignatureCheck::kStale:
      return header + " is stale: its timestamp is more than " +
             std::to_string(kPspSignatureTolerance) + " seconds from now (a replayed callback?)";
    case PspSignatureCheck::kMismatch:
      return header + " does not match the body: not signed by this org's PSP, or altered";
  }
  return "invalid";
}

int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace fake_org
