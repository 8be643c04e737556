#include "util/rsa.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "util/crypto.h"

namespace fake_org::crypto {

class PublicKey {
 public:
  explicit PublicKey(EVP_PKEY* key) : key_(key) {}
  ~PublicKey() { EVP_PKEY_free(key_); }
  PublicKey(const PublicKey&) = delete;
  PublicKey& operator=(const PublicKey&) = delete;
  EVP_PKEY* get() const { return key_; }

 private:
  EVP_PKEY* key_;
};

namespace {

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
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

std::shared_ptr<const PublicKey> certificate_public_key(std::string_view pem, std::string* why) {
  auto bio = memory_bio(pem);
  std::unique_ptr<X509, X509Free> cert(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)
                                           : nullptr);
  if (!cert) {
    if (why) *why = "not a PEM certificate (-----BEGIN CERTIFICATE----- ...)";
    return nullptr;
  }
  EVP_PKEY* key = X509_get_pubkey(cert.get());
  if (!key || EVP_PKEY_base_id(key) != EVP_PKEY_RSA) {
    EVP_PKEY_free(key);
    if (why) *why = "the certificate's key is not an RSA key (RS256 needs one)";
    return nullptr;
  }
  return std::make_shared<const PublicKey>(key);
}

bool verify_rs256(const PublicKey& key, std::string_view data, std::string_view signature) {
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1)
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
