#include "schema_files.h"

#include "contracts_embedded.h"

namespace contracts {

const std::map<std::string, std::string_view>& schema_files() {
  return embedded_files();
}

}  // namespace contracts
