#pragma once
// The few primitives OAuth needs, over OpenSSL.
#include <optional>
#include <string>
#include <string_view>

namespace fake_org::crypto {

std::string base64_encode(std::string_view data);  // standard alphabet, padded
// URL-safe alphabet ('-', '_'), no padding (RFC 4648 5; PKCE's BASE64URL, RFC 7636 A).
std::string base64url_encode(std::string_view data);
// Standard alphabet; padding optional; nullopt on any other character.
std::optional<std::string> base64_decode(std::string_view text);
std::string hex_encode(std::string_view bytes);  // lower case, two digits a byte
// The bytes of hex_encode's text (either case); nullopt when it is not hex.
std::optional<std::string> hex_decode(std::string_view text);
std::string sha256(std::string_view data);                             // 32 raw bytes
std::string hmac_sha256(std::string_view key, std::string_view data);  // 32 raw bytes
// Equal contents, in time that depends on neither content nor lengths:
// both sides are hashed first, then compared with CRYPTO_memcmp.
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace fake_org::crypto
