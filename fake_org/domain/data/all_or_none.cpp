#include "all_or_none.h"

#include "domain/store/record_store.h"

namespace fake_org::data {

void all_or_none(Org& org, const std::function<bool()>& body) {
  org.records().write_enclosing(body);
}

}  // namespace fake_org::data
