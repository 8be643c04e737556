// The top of the domain: the one file that knows every room, listing what
// each adds to an org (org/org_modules.h).
#include "domain/org/org_modules.h"

#include "domain/data/record_relations.h"
#include "domain/org/org.h"
#include "domain/payments/collection_run.h"
#include "domain/payments/views.h"
#include "domain/soql/soql_eval.h"

namespace fake_org {

namespace {

void add_payments_indexes(const OrgConfig& config, std::vector<IndexSpec>& out) {
  add_payment_lookup_indexes(out);
  add_collection_indexes(config, out);
}

void run_due_work(Org& org) {
  run_due_collections(org);
}

}  // namespace

const std::vector<OrgModule>& org_modules() {
  static const std::vector<OrgModule> modules = {
      {"payments", add_payments_indexes, run_due_work},
      {"data", data::add_relation_indexes, nullptr},
      {"soql", soql::add_query_indexes, nullptr},
  };
  return modules;
}

}  // namespace fake_org
