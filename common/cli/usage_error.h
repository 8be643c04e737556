// A command line's usage errors, answered alike by every binary: CLI11's
// message, the nearest option when one was mistyped, exit status 2.
#pragma once

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>
#include <string_view>

namespace common_cli {

// The exit status of a usage error, as POSIX utilities and getopt-based tools use.
inline constexpr int kUsageError = 2;

// The option of `app` or of its subcommands nearest to `given` ("--prot" ->
// "--port"), or "" when none is close enough to be a likely typo.
std::string nearest_option(const CLI::App& app, std::string_view given);

// Prints `error` as CLI11 does, then "did you mean --port?" for each mistyped
// option, and returns kUsageError. --help and --version (CLI::Success) are
// printed and return 0.
int usage_error(const CLI::App& app, const CLI::ParseError& error, std::ostream& out,
                std::ostream& err);

}  // namespace common_cli
