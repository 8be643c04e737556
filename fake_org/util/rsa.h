#pragma once
// RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 3.3) over OpenSSL: what a
// JWT bearer assertion is signed with. The public key comes from the X.509
// certificate a connected app is given, as on the platform.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace fake_org::crypto {

// An RSA (or other) public key, immutable once loaded; safe to share between
// threads (verification takes no lock of ours).
class PublicKey;

// The public key of a PEM certificate ("-----BEGIN CERTIFICATE-----"); null
// with `why` set when the text is not a certificate with an RSA key. The
// certificate's structure is checked here (DER, RFC 5280's fields up to the
// key's algorithm); OpenSSL reads the key on its first verification, and a
// key it does not take then verifies nothing.
std::shared_ptr<const PublicKey> certificate_public_key(std::string_view pem, std::string* why);

// True when `signature` is an RS256 signature of `data` by the key's owner.
bool verify_rs256(const PublicKey& key, std::string_view data, std::string_view signature);

// The RS256 signature of `data` with a PEM private key; nullopt when the key
// does not load. For tests and tools that play the client.
std::optional<std::string> sign_rs256(std::string_view private_key_pem, std::string_view data);

// Base64url without padding (RFC 4648 5), as JWTs are written; padding
// accepted; nullopt on any other character.
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace fake_org::crypto
