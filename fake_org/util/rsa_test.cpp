#include "util/rsa.h"

#include <string>

#include <catch2/catch.hpp>

#include "util/crypto.h"

using namespace fake_org;

namespace {

// openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -subj /CN=ec.example
const char* kEcCertificate = R"(-----BEGIN CERTIFICATE-----
MIIBgTCCASegAwIBAgIUbaRIdSR7As/7c7jhtYEeI38MGgEwCgYIKoZIzj0EAwIw
FTETMBEGA1UEAwwKZWMuZXhhbXBsZTAgFw0yNjExMjcxNDQxNTZaGA8yMTI2MTEw
MzE0NDE1NlowFTETMBEGA1UEAwwKZWMuZXhhbXBsZTBZMBMGByqGSM49AgEGCCqG
SM49AwEHA0IABNBRJXRbMFckyAYjnAKBdBx1cCGpRsgxcZT3SOLX6oshOqp2HT/0
LzNcIjaf2KxmaPUISMVDfm0pQzsnBf7R4LqjUzBRMB0GA1UdDgQWBBTtCbLkkQVf
4LrvtE7H8Gyxm7J6wDAfBgNVHSMEGDAWgBTtCbLkkQVf4LrvtE7H8Gyxm7J6wDAP
BgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQCc/WBDdnHQcQ9w/vvs
qMOdmLLDEFvhcOjpFeAex5py4AIgEj+a3SNwjpw6CLHM5v4su9t9GuD9ClYZZXyW
kd/fIpE=
-----END CERTIFICATE-----
)";

std::string why_refused(const std::string& pem) {
  std::string why;
  auto key = crypto::certificate_public_key(pem, &why);
  return key ? "" : why;
}

}  // namespace

TEST_CASE("a certificate is checked when read, without OpenSSL's decoders", "[rsa]") {
  CHECK(why_refused(kEcCertificate) == "the certificate's key is not an RSA key (RS256 needs one)");
  const std::string not_pem = "not a PEM certificate (-----BEGIN CERTIFICATE----- ...)";
  CHECK(why_refused("not a certificate") == not_pem);
  CHECK(why_refused("-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----") == not_pem);
  CHECK(why_refused("-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----") == not_pem);
  // Every cut of a real certificate's DER is refused, never read past its end.
  const std::string pem(kEcCertificate);
  const size_t body = pem.find('\n') + 1;
  auto der = crypto::base64_decode([&] {
    std::string b;
    for (char c : pem.substr(body, pem.find("-----END") - body))
      if (c != '\n') b += c;
    return b;
  }());
  REQUIRE(der);
  for (size_t n = 0; n < der->size(); ++n) {
    const std::string cut = "-----BEGIN CERTIFICATE-----\n" +
                            crypto::base64_encode(der->substr(0, n)) +
                            "\n-----END CERTIFICATE-----\n";
    INFO(n);
    CHECK(why_refused(cut) == not_pem);
  }
}
