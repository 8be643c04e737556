// --log-level debug shows bodies, never secrets.
#include "util/redaction.h"

#include <catch2/catch.hpp>

using fake_org::redact_body;

TEST_CASE("debug bodies: secrets in forms are redacted, the rest is kept", "[log]") {
  CHECK(redact_body("application/x-www-form-urlencoded",
                    "grant_type=authorization_code&code=abc&client_id=local-client&client_secret=s3"
                    "&redirect_uri=http%3A%2F%2Flocalhost") ==
        "grant_type=authorization_code&code=[redacted]&client_id=local-client"
        "&client_secret=[redacted]&redirect_uri=http%3A%2F%2Flocalhost");
  CHECK(redact_body("application/x-www-form-urlencoded; charset=utf-8", "token=t0k&x") ==
        "token=[redacted]&x");
  // PKCE's verifier is the secret half of the challenge (RFC 7636 4.1).
  CHECK(
      redact_body("application/x-www-form-urlencoded",
                  "grant_type=authorization_code&code_verifier=dBjftJeZ4CVP&code_challenge=E9Me") ==
      "grant_type=authorization_code&code_verifier=[redacted]&code_challenge=E9Me");
}

TEST_CASE("debug bodies: secrets in JSON are redacted at any depth", "[log]") {
  CHECK(redact_body("application/json",
                    R"({"access_token":"00D!x","instance_url":"http://h","signature":"c2ln",)"
                    R"("nested":[{"CardNumber":"4242424242424242","cvc":"123","Name":"Ada"}]})") ==
        R"({"access_token":"[redacted]","instance_url":"http://h","nested":[{"CardNumber":)"
        R"("[redacted]","Name":"Ada","cvc":"[redacted]"}],"signature":"[redacted]"})");
  CHECK(redact_body("application/json;charset=UTF-8",
                    R"({"Errors":[{"error_code":"010","error_message":"x"}]})") ==
        R"({"Errors":[{"error_code":"010","error_message":"x"}]})");
}

TEST_CASE("debug bodies: secret names match normalised, by part, ordinary fields stay", "[log]") {
  using nlohmann::json;
  json in = {{"Card_Number__c", "x"},
             {"AccountNumber", "x"},
             {"id_token", "x"},
             {"api_key", "x"},
             {"X-Api-Key", "x"},
             {"Iban", "x"},
             {"cvv2", "x"},
             {"client_assertion", "x"},
             {"Webhook-Signature", "x"},
             {"refreshToken", "x"},
             {"code", "x"},
             {"Password__c", "x"},
             {"LastName", "Lovelace"},
             {"Email", "ada@example.com"},
             {"PostalCode", "75001"},
             {"Amount", 25},
             {"error_code", "010"},
             {"IdempotencyKey", "k1"},
             {"Currency", "EUR"}};
  json out = json::parse(redact_body("application/json", in.dump()));
  for (const char* secret :
       {"Card_Number__c", "AccountNumber", "id_token", "api_key", "X-Api-Key", "Iban", "cvv2",
        "client_assertion", "Webhook-Signature", "refreshToken", "code", "Password__c"})
    CHECK(out[secret] == "[redacted]");
  for (const char* kept :
       {"LastName", "Email", "PostalCode", "Amount", "error_code", "IdempotencyKey", "Currency"})
    CHECK(out[kept] == in[kept]);
  CHECK(redact_body("application/x-www-form-urlencoded", "Card_Number__c=1&PostalCode=75001") ==
        "Card_Number__c=[redacted]&PostalCode=75001");
}

TEST_CASE("debug bodies: Luhn-valid 13-19 digit runs in any string are masked", "[log]") {
  CHECK(
      redact_body("application/json",
                  R"({"Note":"paid with 4111111111111111 today","Ref":"4111111111111112",)"
                  R"("Short":"411111111111","Phone":"+33 1 23 45 67 89","Amex":"378282246310005",)"
                  R"("Nested":["x6011111111111117y"]})") ==
      R"({"Amex":"[redacted]","Nested":["x[redacted]y"],"Note":"paid with [redacted] today",)"
      R"("Phone":"+33 1 23 45 67 89","Ref":"4111111111111112","Short":"411111111111"})");
}

TEST_CASE("debug bodies: JSON labelled as a form (curl -d) is redacted as JSON", "[log]") {
  CHECK(redact_body("application/x-www-form-urlencoded",
                    R"({"CardNumber":"4111111111111111","Name":"Ada"})") ==
        R"({"CardNumber":"[redacted]","Name":"Ada"})");
  CHECK(redact_body("", R"({"client_secret":"s3"})") == R"({"client_secret":"[redacted]"})");
  CHECK(redact_body("application/x-www-form-urlencoded", "a=1&password=p") ==
        "a=1&password=[redacted]");
}

TEST_CASE("debug bodies: other bodies only by size and type", "[log]") {
  CHECK(redact_body("text/html; charset=utf-8", "<p>card 4242</p>") ==
        "(16 bytes of text/html; charset=utf-8)");
  CHECK(redact_body("", "") == "(empty)");
}

TEST_CASE("debug bodies: a form field's name is read percent-decoded", "[log]") {
  // The server reads "client%5Fsecret" as client_secret: so does the redaction.
  CHECK(redact_body("application/x-www-form-urlencoded", "client%5Fsecret=s3&api+key=k&a=%41") ==
        "client%5Fsecret=[redacted]&api+key=k&a=%41");
  CHECK(redact_body("application/x-www-form-urlencoded", "pass%77ord=p&x=%") ==
        "pass%77ord=[redacted]&x=%");
}
