#include "util/rsa.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "util/crypto.h"

namespace fake_org::crypto {

// The key of a certificate whose structure was checked when read; OpenSSL
// makes its EVP_PKEY on the first verification. OpenSSL 3 sets up its
// decoders for that (about 2 ms, 5 million instructions), which a start
// that never sees a JWT bearer grant need not pay.
//
// Locking rule: immutable but for the key, made once under std::call_once;
// any thread may verify at any time.
class PublicKey {
 public:
  explicit PublicKey(std::string spki) : spki_(std::move(spki)) {}
  ~PublicKey() { EVP_PKEY_free(key_); }
  PublicKey(const PublicKey&) = delete;
  PublicKey& operator=(const PublicKey&) = delete;
  // Null when OpenSSL does not take the key the structure check let by.
  EVP_PKEY* get() const {
    std::call_once(made_, [this] {
      const auto* der = reinterpret_cast<const unsigned char*>(spki_.data());
      key_ = d2i_PUBKEY(nullptr, &der, static_cast<long>(spki_.size()));
    });
    return key_;
  }

 private:
  std::string spki_;  // the certificate's SubjectPublicKeyInfo, DER
  mutable std::once_flag made_;
  mutable EVP_PKEY* key_ = nullptr;
};

namespace {

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct PkeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};

std::unique_ptr<BIO, BioFree> memory_bio(std::string_view text) {
  return std::unique_ptr<BIO, BioFree>(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

}  // namespace

namespace {

// One DER element (X.690 8.1): its tag, and its contents within `der`.
struct Element {
  uint8_t tag = 0;
  std::string_view contents;
  std::string_view whole;  // tag and length included
};

// The element at the start of `der`, moving `der` past it; nullopt when the
// bytes are not one (a high tag number, an indefinite or overlong length).
std::optional<Element> next_element(std::string_view& der) {
  if (der.size() < 2 || (der[0] & 0x1F) == 0x1F) return std::nullopt;
  Element e;
  e.tag = static_cast<uint8_t>(der[0]);
  size_t length = static_cast<uint8_t>(der[1]);
  size_t header = 2;
  if (length & 0x80) {
    const size_t bytes = length & 0x7F;
    if (bytes == 0 || bytes > 3 || der.size() < 2 + bytes) return std::nullopt;
    length = 0;
    for (size_t i = 0; i < bytes; ++i) length = length << 8 | static_cast<uint8_t>(der[2 + i]);
    header += bytes;
  }
  if (der.size() - header < length) return std::nullopt;
  e.contents = der.substr(header, length);
  e.whole = der.substr(0, header + length);
  der.remove_prefix(header + length);
  return e;
}

// The SubjectPublicKeyInfo of a DER certificate (RFC 5280 4.1) when its
// algorithm is rsaEncryption; `why` says what is wrong otherwise.
std::optional<std::string_view> rsa_key_info(std::string_view der, std::string& why) {
  why = "not a PEM certificate (-----BEGIN CERTIFICATE----- ...)";
  constexpr uint8_t kSequence = 0x30, kInteger = 0x02, kVersion = 0xA0;
  auto cert = next_element(der);
  if (!cert || cert->tag != kSequence || !der.empty()) return std::nullopt;
  std::string_view inside = cert->contents;
  auto tbs = next_element(inside);
  if (!tbs || tbs->tag != kSequence) return std::nullopt;
  std::string_view fields = tbs->contents;
  auto field = next_element(fields);
  if (field && field->tag == kVersion) field = next_element(fields);
  if (!field || field->tag != kInteger) return std::nullopt;  // serialNumber
  // signature, issuer, validity, subject: four SEQUENCEs, then the key.
  for (int i = 0; i < 5; ++i) {
    field = next_element(fields);
    if (!field || field->tag != kSequence) return std::nullopt;
  }
  std::string_view spki = field->contents;
  auto algorithm = next_element(spki);
  if (!algorithm || algorithm->tag != kSequence) return std::nullopt;
  std::string_view ids = algorithm->contents;
  auto oid = next_element(ids);
  static constexpr char kRsaEncryption[] = "\x2A\x86\x48\x86\xF7\x0D\x01\x01\x01";
  if (!oid || oid->tag != 0x06) return std::nullopt;
  if (oid->contents != std::string_view(kRsaEncryption, sizeof kRsaEncryption - 1)) {
    why = "the certificate's key is not an RSA key (RS256 needs one)";
    return std::nullopt;
  }
  return field->whole;
}

}  // namespace

std::shared_ptr<const PublicKey> certificate_public_key(std::string_view pem, std::string* why) {
  // Checked here by hand, so a start does not set up OpenSSL's decoders
  // (PublicKey makes the key on first use).
  static constexpr std::string_view kBegin = "-----BEGIN CERTIFICATE-----";
  static constexpr std::string_view kEnd = "-----END CERTIFICATE-----";
  std::string reason = "not a PEM certificate (-----BEGIN CERTIFICATE----- ...)";
  const size_t begin = pem.find(kBegin);
  const size_t end = begin == std::string_view::npos ? begin : pem.find(kEnd, begin);
  std::optional<std::string> der;
  if (end != std::string_view::npos) {
    std::string base64;
    for (char c : pem.substr(begin + kBegin.size(), end - begin - kBegin.size()))
      if (c != '\n' && c != '\r' && c != ' ' && c != '\t') base64 += c;
    der = base64_decode(base64);
  }
  std::optional<std::string_view> spki;
  if (der) spki = rsa_key_info(*der, reason);
  if (!spki) {
    if (why) *why = reason;
    return nullptr;
  }
  return std::make_shared<const PublicKey>(std::string(*spki));
}

bool verify_rs256(const PublicKey& key, std::string_view data, std::string_view signature) {
  EVP_PKEY* pkey = key.get();
  if (!pkey || EVP_PKEY_base_id(pkey) != EVP_PKEY_RSA) return false;
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, pkey) != 1)
    return false;
  return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                          signature.size(), reinterpret_cast<const unsigned char*>(data.data()),
                          data.size()) == 1;
}

std::optional<std::string> sign_rs256(std::string_view private_key_pem, std::string_view data) {
  auto bio = memory_bio(private_key_pem);
  std::unique_ptr<EVP_PKEY, PkeyFree> key(
      bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  if (!key || !ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1)
    return std::nullopt;
  size_t size = 0;
  const auto* in = reinterpret_cast<const unsigned char*>(data.data());
  if (EVP_DigestSign(ctx.get(), nullptr, &size, in, data.size()) != 1) return std::nullopt;
  std::string out(size, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &size, in,
                     data.size()) != 1)
    return std::nullopt;
  out.resize(size);
  return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  std::string standard(text);
  for (char& c : standard) {
    if (c == '+' || c == '/') return std::nullopt;
    if (c == '-') c = '+';
    if (c == '_') c = '/';
  }
  return base64_decode(standard);
}

}  // namespace fake_org::crypto
