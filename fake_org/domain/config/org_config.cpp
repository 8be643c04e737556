#include "org_config.h"

#include "domain/core/ids.h"
#include "util/ascii.h"

#include <strings.h>

namespace fake_org {

namespace {
template <typename T, typename F>
const T* find_in(const std::vector<T>& v, F pred) {
  for (const auto& x : v)
    if (pred(x)) return &x;
  return nullptr;
}

uint64_t folded_hash(std::string_view name) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the lower-cased bytes
  for (char c : name) h = (h ^ static_cast<uint8_t>(ascii_lower(c))) * 1099511628211ull;
  return h;
}
}  // namespace

const char* to_string(InitialPayment v) {
  switch (v) {
    case InitialPayment::kRequired:
      return "Required";
    case InitialPayment::kOptional:
      return "Optional";
    case InitialPayment::kNo:
      return "No";
  }
  return "Optional";
}

const char* to_string(MethodKind v) {
  switch (v) {
    case MethodKind::kCard:
      return "card";
    case MethodKind::kBank:
      return "bank";
    case MethodKind::kWallet:
      return "wallet";
  }
  return "card";
}

// Configuration lists are short (a handful of methods, targets, record
// types): a linear pass keeps fixture order. An object's fields are tens and
// asked for by name several times a request, so they also have a table.
void ObjectDef::index_fields() {
  field_table.clear();
  field_table_for = 0;
  if (fields.size() >= UINT16_MAX) return;  // walked, as unindexed
  size_t room = 8;
  while (room < fields.size() * 2) room *= 2;
  field_table.assign(room, 0);
  for (size_t i = 0; i < fields.size(); ++i) {
    size_t at = folded_hash(fields[i].name) & (room - 1);
    while (field_table[at] != 0) at = (at + 1) & (room - 1);
    field_table[at] = static_cast<uint16_t>(i + 1);
  }
  field_table_for = fields.size();
}

const FieldDef* ObjectDef::field(std::string_view name) const {
  if (field_table.empty() || field_table_for != fields.size())
    return find_in(fields, [&](const FieldDef& f) { return iequals(f.name, name); });
  const size_t mask = field_table.size() - 1;
  for (size_t at = folded_hash(name) & mask; field_table[at] != 0; at = (at + 1) & mask) {
    const FieldDef& f = fields[field_table[at] - 1];
    if (iequals(f.name, name)) return &f;
  }
  return nullptr;
}
const RecordTypeDef* ObjectDef::record_type(std::string_view name) const {
  return find_in(record_types, [&](const RecordTypeDef& r) { return r.name == name; });
}
const RecordTypeDef* ObjectDef::default_record_type() const {
  return find_in(record_types, [](const RecordTypeDef& r) { return r.is_default; });
}
const TargetDef* ProcessorDef::target(std::string_view name) const {
  return find_in(targets, [&](const TargetDef& t) { return t.name == name; });
}
const TargetDef* ProcessorDef::default_target() const {
  return find_in(targets, [](const TargetDef& t) { return t.is_default; });
}
const ProcessorDef* PaymentMethodDef::processor(std::string_view name) const {
  return find_in(processors, [&](const ProcessorDef& p) { return p.name == name; });
}
const ProcessorDef* PaymentMethodDef::default_processor() const {
  return find_in(processors, [](const ProcessorDef& p) { return p.is_default; });
}
const PackageActionDef* PackageDef::action(std::string_view name) const {
  return find_in(actions, [&](const PackageActionDef& a) { return a.name == name; });
}
const ConnectedAppDef* AuthSettings::app(std::string_view client_id) const {
  return find_in(connected_apps,
                 [&](const ConnectedAppDef& a) { return a.client_id == client_id; });
}
const UserDef* AuthSettings::user(std::string_view username) const {
  return find_in(users, [&](const UserDef& u) { return iequals(u.username, username); });
}

const UserDef* AuthSettings::user_by_id(std::string_view id) const {
  return find_in(users, [&](const UserDef& u) { return u.id == id; });
}

const UserDef& AuthSettings::integration_user() const {
  if (!users.empty()) return users.front();
  static const UserDef fallback = default_integration_user();
  return fallback;
}

UserDef default_integration_user() {
  UserDef u;
  u.username = "integration@local-fake-org.example";
  u.id = std::string(kIntegrationUserId15) + record_id_suffix(kIntegrationUserId15);
  u.first_name = "Integration";
  u.last_name = "User";
  u.email = "integration@local-fake-org.example";
  return u;
}

std::string UserDef::display_name() const {
  if (first_name.empty()) return last_name;
  if (last_name.empty()) return first_name;
  return first_name + " " + last_name;
}

const ObjectDef* OrgConfig::object(std::string_view api_name) const {
  auto it = objects.find(api_name);
  if (it != objects.end()) return &it->second;
  for (const auto& [name, def] : objects)
    if (iequals(name, api_name)) return &def;
  return nullptr;
}
const PaymentMethodDef* OrgConfig::payment_method(std::string_view name) const {
  return find_in(payment_methods, [&](const PaymentMethodDef& m) { return m.name == name; });
}
const SourceConnectorDef* OrgConfig::source_connector(std::string_view name) const {
  return find_in(source_connectors, [&](const SourceConnectorDef& s) { return s.name == name; });
}
const SourceConnectorDef* OrgConfig::default_source_connector() const {
  return find_in(source_connectors, [](const SourceConnectorDef& s) { return s.is_default; });
}
const SourceConnectorDef* OrgConfig::connector_for_object(std::string_view api_name) const {
  return find_in(source_connectors, [&](const SourceConnectorDef& s) {
    return s.recurring_object == api_name || s.schedule_object == api_name;
  });
}
const PackageDef* OrgConfig::package(std::string_view name) const {
  return find_in(packages, [&](const PackageDef& p) { return p.name == name; });
}
const ProcessingTypeDef* OrgConfig::processing_type(std::string_view name) const {
  return find_in(processing_types, [&](const ProcessingTypeDef& p) { return p.name == name; });
}
bool OrgConfig::has_currency(std::string_view iso) const {
  for (const auto& c : org.currencies)
    if (c == iso) return true;
  return false;
}

}  // namespace fake_org
