#pragma once
// What each room above the org adds to every org: the lookups it needs the
// store to keep (indexes, fixed when the org is made) and the work that
// comes due when the org clock moves. The org runs them without knowing the
// rooms; the list is kept at the top of the domain (domain/org_modules.cpp),
// the one file that knows every room.
#include <vector>

namespace fake_org {

class Org;
struct OrgConfig;
struct IndexSpec;

struct OrgModule {
  const char* name;
  // Appends the indexes this room reads (null: none).
  void (*add_indexes)(const OrgConfig& config, std::vector<IndexSpec>& out) = nullptr;
  // Runs what came due after the org clock moved (null: nothing).
  void (*clock_changed)(Org& org) = nullptr;
};

// Every module, in the order their indexes are added and their clock hooks
// run.
const std::vector<OrgModule>& org_modules();

}  // namespace fake_org
