#include "record_create.h"

#include "domain/config/org_config.h"
#include "domain/core/fields.h"
#include "domain/core/ids.h"
#include "domain/store/record.h"

namespace fake_org {

namespace {

bool empty_value(const std::optional<FieldValue>& v) {
  return !v || v->is_null() || (v->is_string() && v->str().empty());
}

// What an installment made from outside the payment API means when its body
// leaves out what the org itself always sets (decisions 49): the status a
// new installment gets (org.installment_initial_status), the open amount of
// an unpaid one (its Amount; 0 once Collected), the org's default currency.
// The API's reads and webhooks then show it as they show the org's own.
void fill_installment_defaults(const OrgConfig& config, const ObjectDef& def, Record& r) {
  namespace f = fields::installment;
  if (def.field(f::kStatus) && empty_value(r.get(f::kStatus)))
    r.fields[f::kStatus] = config.org.installment_initial_status;
  if (def.field(f::kAmountOpen) && empty_value(r.get(f::kAmountOpen))) {
    auto amount = r.get(f::kAmount);
    if (r.text(f::kStatus) == "Collected")
      r.fields[f::kAmountOpen] = 0;
    else if (amount && amount->is_number())
      r.fields[f::kAmountOpen] = *amount;
  }
  if (def.field(fields::kCurrency) && empty_value(r.get(fields::kCurrency)))
    r.fields[fields::kCurrency] = config.org.default_currency;
}

}  // namespace

Record new_record(Org& org, const ObjectDef& def, nlohmann::json fields,
                  const RecordTypeDef* record_type) {
  Record r;
  r.fields = std::move(fields);
  if (def.api_name == objects::kInstallment) fill_installment_defaults(org.config(), def, r);
  if (!record_type) record_type = def.default_record_type();
  if (record_type) r.fields[fields::kRecordTypeName] = record_type->name;
  r.object = def.api_name;
  r.id = org.ids().record_id(def.key_prefix);
  if (object_has_guid(r.object)) r.guid = org.ids().guid();
  r.created = r.modified = org.clock().now();
  return r;
}

}  // namespace fake_org
