#pragma once
// The schema files compiled into the binary, for tools that read the schemas
// themselves (the runner's explore derives near-misses from their keywords).
#include <map>
#include <string>
#include <string_view>

namespace contracts {

// Path relative to contracts/schemas -> the file's JSON text.
const std::map<std::string, std::string_view>& schema_files();

}  // namespace contracts
