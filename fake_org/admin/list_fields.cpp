#include "admin/list_fields.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "domain/config/org_config.h"

namespace fake_org::admin {
namespace {

bool list_name_has(std::string_view name, std::string_view part) {
  return std::search(name.begin(), name.end(), part.begin(), part.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) ==
                  std::tolower(static_cast<unsigned char>(b));
         }) != name.end();
}

bool list_is_status(const FieldDef& f) {
  return list_name_has(f.name, "status") || f.name == "StageName";
}

bool list_is_amount(const FieldDef& f) {
  return f.type == FieldType::kCurrency || list_name_has(f.name, "amount") ||
         f.name == "CurrencyIsoCode";
}

bool list_is_date(const FieldDef& f) {
  return f.type == FieldType::kDate || f.type == FieldType::kDateTime;
}

}  // namespace

std::vector<std::string> list_fields(const ObjectDef& object, size_t limit) {
  if (!object.list_fields.empty()) return object.list_fields;
  std::vector<std::string> out;
  auto add = [&](const FieldDef* f) {
    if (f && out.size() < limit && std::find(out.begin(), out.end(), f->name) == out.end())
      out.push_back(f->name);
  };
  const FieldDef* name = object.field("Name");
  const FieldDef* last = object.field("LastName");
  // Contact's Name is the org's, made of the two a person typed.
  if (name && !(name->system && last)) {
    add(name);
  } else {
    add(last);
    add(object.field("FirstName"));
  }
  add(object.field("Email"));
  using Tier = bool (*)(const FieldDef&);
  for (Tier tier : {Tier{list_is_status}, Tier{list_is_amount}, Tier{list_is_date}})
    for (const auto& f : object.fields)
      if (tier(f)) add(&f);
  for (const auto& f : object.fields)
    if (f.type != FieldType::kTextArea && &f != name) add(&f);
  return out;
}

}  // namespace fake_org::admin
