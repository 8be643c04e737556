#pragma once
// Which fixture files a request may name (POST /__admin/orgs): only files
// under a directory fake-org was started with (--fixtures-dir), so a client
// of the admin API cannot make the server read, or quote, any other file.
// The command line's --fixture is the operator's own and is not checked.
#include <optional>
#include <string>
#include <vector>

namespace fake_org::app {

// The file `spec` names under one of `dirs`: a path relative to a directory
// or an absolute one inside it, ending in .yaml or .yml, a regular file once
// every symbolic link is followed. Its canonical path, or nullopt with
// `error` saying why in words that quote only `spec` and the directories
// (never the file's content); no filesystem error escapes as an exception.
std::optional<std::string> fixture_file_under(const std::string& spec,
                                              const std::vector<std::string>& dirs,
                                              std::string& error);

}  // namespace fake_org::app
