#pragma once
// Where the programs a report tells a person to run are: beside the binary
// actually running, so a report written by an installed scenario-runner, or
// one run from another directory, names programs that exist rather than
// build/bin/... relative to a working directory the reader may not have.
#include <string>

namespace runner {

// The absolute path of `name` (fake-org, scenario-runner) in the running
// binary's directory when it is there; else `name` alone, for PATH to find.
// Shell-quoted when it needs to be.
std::string sibling_binary(const std::string& name);

}  // namespace runner
