#pragma once
// The curl command line that sends a request again, for failure reports. The
// bearer token is written as $TOKEN (in double quotes so the shell expands it);
// every other argument is single-quoted verbatim.
#include <string>
#include <vector>

#include "net/http_types.h"

namespace runner {

// `token` is replaced by $TOKEN wherever it appears (header or body).
// `ca_file`: the CA the runner trusted (--ca-file), which curl needs as well.
std::string to_curl(const HttpRequest& request, const std::string& token = "",
                    const std::string& ca_file = "");
std::string shell_quote(const std::string& s);

// `text` written with ${env:NAME} references (a sandbox configuration's
// value) as one double-quoted shell word in which each reference is ${NAME}
// for the shell to expand: a printed command names the variable, never the
// secret. `$${` is a literal "${"; " \ $ and ` in literal parts are escaped.
std::string env_shell_word(const std::string& text);

// A shell line that sets $TOKEN from an OAuth token endpoint's answer.
// `fields` are shell words for name=value (quoted already: single quotes for
// literal values, double quotes around an environment reference), each sent
// with --data-urlencode so a value with + & = arrives as written.
std::string token_line(const std::string& token_url, const std::string& grant_type,
                       const std::vector<std::string>& fields, const std::string& ca_file = "");

// `command` with each single-quoted word that starts with `url` made to start
// with "$VARIABLE" instead ('http://x/a' -> "$ORG"'/a'): for an org whose
// URL the shell learns only as it runs (a fake-org on a free port).
std::string with_url_variable(const std::string& command, const std::string& url,
                              const std::string& variable);

}  // namespace runner
