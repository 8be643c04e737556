#pragma once
// Bearer tokens for the runner's own requests, from the org's OAuth token
// endpoint: client_credentials, or refresh_token for a real org. A 401 in the
// middle of a run asks for a refresh; parallel scenarios that saw the same
// stale token share one refresh.
//
// Locking: mutex_ guards token_, refresh_token_ and http_; the token request
// itself is made with mutex_ held so only one is in flight.
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "net/http_client.h"
#include "scenario/model.h"

namespace runner {

class TargetError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OAuthGrant {
  std::string token_url;   // https://host/services/oauth2/token
  std::string grant_type;  // client_credentials | refresh_token
  std::string client_id;
  std::string client_secret;
  std::string refresh_token;
};

class TokenProvider {
 public:
  TokenProvider(OAuthGrant grant, TlsOptions tls);
  // The current token, fetched on first use. Throws TargetError.
  std::string token();
  // A new token, unless another caller already replaced `stale`.
  std::string refresh(const std::string& stale);
  const OAuthGrant& grant() const { return grant_; }

 private:
  std::string fetch_locked();
  OAuthGrant grant_;
  std::mutex mutex_;
  HttpClient http_;
  std::string token_;
};

}  // namespace runner
