#include "catalogue_check.h"

#include <map>

#include "domain/config/crm_fields_values.h"
#include "domain/org/standard_records.h"
#include "domain/store/record_store.h"
#include "util/json_text.h"

namespace fake_org {

std::vector<std::string> catalogue_violations(const Org& org, size_t limit) {
  const OrgConfig& config = org.config();
  return org.records().read([&](const RecordStore& store) {
    std::vector<std::string> out;
    auto add = [&](const Record& r, const std::string& what) {
      if (out.size() < limit) out.push_back(r.object + " " + r.id + ": " + what);
    };
    for (const std::string& object : store.objects()) {
      const ObjectDef* def = config.object(object);
      for (const auto& id : store.ids_of(object)) {
        RecordPtr r = store.get(id);
        if (!r) continue;
        if (!def) {
          add(*r, "the org defines no object " + object);
          continue;
        }
        for (const auto& [name, value] : r->fields.items()) {
          if (value.is_null()) continue;
          if (name == "RecordTypeName") {  // the record's type, not a field of the catalogue
            if (!value.is_string() || !def->record_type(value.get<std::string>()))
              add(*r, "record type " + text::json_text(value.json()) + " is not one of " + object +
                          "'s");
            continue;
          }
          if (name == system_field::kOwnerId && system_reference_field(*def, name)) {
            if (!value.is_string() || !store.get(value.str()))
              add(*r, "OwnerId " + text::json_text(value.json()) + " names no record");
            continue;
          }
          const FieldDef* f = def->field(name);
          if (!f) {
            add(*r, "no field " + std::string(name) + " exists on " + object + " in this org");
            continue;
          }
          // Stored values are already normalised, so checking one again must
          // give it back unchanged.
          crm_detail::Checked c = crm_detail::check_value(*def, *f, value.json(), &config);
          if (!c.reason.empty())
            add(*r, f->name + " " + c.reason + " (stored: " + text::json_text(value.json()) + ")");
          else if (c.value != value.json())
            add(*r, f->name + " is stored as " + text::json_text(value.json()) +
                        ", not in its normal form " + text::json_text(c.value));
        }
      }
    }
    return out;
  });
}

}  // namespace fake_org
