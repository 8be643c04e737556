#pragma once
// A self-signed certificate for 127.0.0.1, made by the test, so HTTPS is
// tested without any file checked in and without the system CA store: the
// fake's own TLS loop and the runner's HTTPS targets alike.
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace common_testing {

struct TestCert {
  std::shared_ptr<EVP_PKEY> key;
  std::shared_ptr<X509> cert;
  std::string cert_pem;
  std::string key_pem;

  static TestCert make() {
    TestCert t;
    t.key.reset(EVP_EC_gen("P-256"), EVP_PKEY_free);
    t.cert.reset(X509_new(), X509_free);
    X509* x = t.cert.get();
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
    X509_gmtime_adj(X509_getm_notBefore(x), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x), 24 * 3600);
    X509_set_pubkey(x, t.key.get());
    X509_NAME* name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
    X509_set_issuer_name(x, name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, x, x, nullptr, nullptr, 0);
    for (auto [nid, value] : {std::pair{NID_subject_alt_name, "IP:127.0.0.1"},
                              std::pair{NID_basic_constraints, "critical,CA:TRUE"}}) {
      X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
      X509_add_ext(x, ext, -1);
      X509_EXTENSION_free(ext);
    }
    if (!X509_sign(x, t.key.get(), EVP_sha256())) throw std::runtime_error("X509_sign failed");
    t.cert_pem = to_pem([&](BIO* b) { return PEM_write_bio_X509(b, x); });
    t.key_pem = to_pem([&](BIO* b) {
      return PEM_write_bio_PrivateKey(b, t.key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    });
    return t;
  }

  void write(const std::string& cert_file, const std::string& key_file) const {
    std::ofstream(cert_file) << cert_pem;
    std::ofstream(key_file) << key_pem;
  }

 private:
  template <typename F>
  static std::string to_pem(F write) {
    BIO* b = BIO_new(BIO_s_mem());
    write(b);
    char* data = nullptr;
    long n = BIO_get_mem_data(b, &data);
    std::string s(data, static_cast<size_t>(n));
    BIO_free(b);
    return s;
  }
};

}  // namespace common_testing
