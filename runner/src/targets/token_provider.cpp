#include "targets/token_provider.h"

namespace runner {

TokenProvider::TokenProvider(OAuthGrant grant, TlsOptions tls)
    : grant_(std::move(grant)), http_(std::move(tls)) {}

std::string TokenProvider::token() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (token_.empty()) token_ = fetch_locked();
  return token_;
}

std::string TokenProvider::refresh(const std::string& stale) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (token_.empty() || token_ == stale) token_ = fetch_locked();
  return token_;
}

std::string TokenProvider::fetch_locked() {
  StringPairs form = {{"grant_type", grant_.grant_type},
                      {"client_id", grant_.client_id},
                      {"client_secret", grant_.client_secret}};
  if (grant_.grant_type == "refresh_token")
    form.emplace_back("refresh_token", grant_.refresh_token);
  HttpRequest req;
  req.method = "POST";
  req.url = grant_.token_url;
  req.headers = {{"Content-Type", "application/x-www-form-urlencoded"},
                 {"Accept", "application/json"}};
  req.body = encode_form(form);
  HttpResponse res;
  try {
    res = http_.send(req);
  } catch (const HttpError& e) {
    throw TargetError(std::string("OAuth token request failed: ") + e.what());
  }
  auto body = res.json();
  if (res.status != 200 || !body || !body->contains("access_token") ||
      !(*body)["access_token"].is_string())
    throw TargetError("OAuth " + grant_.grant_type + " grant at " + grant_.token_url +
                      " answered " + std::to_string(res.status) + ": " + res.body.substr(0, 300));
  // Some orgs rotate refresh tokens; keep the newest.
  if (body->contains("refresh_token") && (*body)["refresh_token"].is_string() &&
      grant_.grant_type == "refresh_token")
    grant_.refresh_token = (*body)["refresh_token"].get<std::string>();
  return (*body)["access_token"].get<std::string>();
}

}  // namespace runner
