#pragma once
// `--log-level debug`: each request's and response's body under its log line,
// with secrets replaced by "[redacted]": OAuth tokens, codes and client
// secrets, webhook and token signatures, card numbers and security codes.
// Stateless; safe from any thread.
#include <string>
#include <string_view>

namespace fake_org::http {

// JSON (any depth) and form bodies are shown with the values of secret names
// redacted; other bodies only by size and type, since they may hold anything.
std::string redact_body(std::string_view content_type, const std::string& body);

}  // namespace fake_org::http
