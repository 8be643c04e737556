#include "standard_records.h"

#include <set>

#include "domain/core/fields.h"
#include "domain/core/ids.h"
#include "domain/store/transaction.h"
#include "util/ascii.h"

namespace fake_org {

namespace {

// An id of `prefix` whose 12 other characters are a hash of `name` in base
// 62: the same name gives the same id in every org and every run.
std::string named_id(std::string_view prefix, std::string_view name) {
  static const char kDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  std::string id15(prefix.substr(0, 3));
  id15 += "7Q0";  // as the fixtures' own fixed ids
  for (int i = 0; i < 9; ++i, h /= 62) id15 += kDigits[h % 62];
  return id15 + record_id_suffix(id15);
}

Record standard_record(const ObjectDef& def, std::string id, TimePoint now) {
  Record r;
  r.object = def.api_name;
  r.id = std::move(id);
  r.created = r.modified = now;
  return r;
}

void put_missing(Transaction& tx, Record r) {
  if (!tx.get(r.id)) tx.put(std::move(r));
}

void stage_organization(const OrgConfig& config, const std::string& org_id, TimePoint now,
                        Transaction& tx) {
  const ObjectDef* def = config.object("Organization");
  if (!def) return;
  const UserDef& admin = config.auth.integration_user();
  Record r = standard_record(*def, org_id, now);
  r.fields["Name"] = config.org.name;
  // The edition whose limits GET limits shows (data_limits.h).
  r.fields["OrganizationType"] = "Developer Edition";
  r.fields["IsSandbox"] = config.org.sandbox;
  r.fields["InstanceName"] = "LOCAL";
  r.fields["DefaultLocaleSidKey"] = admin.locale;
  r.fields["TimeZoneSidKey"] = admin.time_zone;
  r.fields["LanguageLocaleKey"] = admin.language;
  r.fields["DefaultCurrencyIsoCode"] = config.org.default_currency;
  put_missing(tx, std::move(r));
}

void stage_users(const OrgConfig& config, TimePoint now, Transaction& tx) {
  const ObjectDef* user = config.object("User");
  const ObjectDef* profile = config.object("Profile");
  std::vector<UserDef> users = config.auth.users;
  if (users.empty()) users.push_back(config.auth.integration_user());
  std::set<std::string> profiles;
  for (const UserDef& u : users) {
    profiles.insert(u.profile);
    if (!user) continue;
    Record r = standard_record(*user, to_id18(u.id).value_or(u.id), now);
    r.fields["Username"] = u.username;
    r.fields["Name"] = u.display_name();
    if (!u.first_name.empty()) r.fields["FirstName"] = u.first_name;
    r.fields["LastName"] = u.last_name.empty() ? u.username : u.last_name;
    if (!u.email.empty()) r.fields["Email"] = u.email;
    std::string alias = u.first_name.substr(0, 1) + u.last_name.substr(0, 4);
    r.fields["Alias"] = ascii_lower(alias.empty() ? u.username.substr(0, 5) : alias);
    r.fields["IsActive"] = true;
    r.fields["UserType"] = "Standard";
    if (profile) r.fields["ProfileId"] = profile_id(u.profile);
    r.fields["TimeZoneSidKey"] = u.time_zone;
    r.fields["LocaleSidKey"] = u.locale;
    r.fields["LanguageLocaleKey"] = u.language;
    if (r.id.size() == 18) put_missing(tx, std::move(r));
  }
  if (!profile) return;
  for (const std::string& name : profiles) {
    Record r = standard_record(*profile, profile_id(name), now);
    r.fields["Name"] = name;
    r.fields["UserType"] = "Standard";
    put_missing(tx, std::move(r));
  }
}

void stage_record_types(const OrgConfig& config, TimePoint now, Transaction& tx) {
  const ObjectDef* def = config.object("RecordType");
  if (!def) return;
  for (const auto& [name, object] : config.objects)
    for (const RecordTypeDef& type : object.record_types) {
      Record r = standard_record(*def, record_type_id(object, type), now);
      r.fields["Name"] = type.label.empty() ? type.name : type.label;
      r.fields["DeveloperName"] = type.name;
      r.fields["SobjectType"] = object.api_name;
      r.fields["IsActive"] = true;
      r.fields["IsPersonType"] = type.person_account;
      put_missing(tx, std::move(r));
    }
}

}  // namespace

std::string profile_id(std::string_view profile_name) {
  return named_id("00e", profile_name);
}

std::string record_type_id(const ObjectDef& object, const RecordTypeDef& type) {
  return named_id("012", object.api_name + "." + type.name);
}

const RecordTypeDef* record_type_by_id(const ObjectDef& object, std::string_view id18) {
  for (const RecordTypeDef& type : object.record_types)
    if (record_type_id(object, type) == id18) return &type;
  return nullptr;
}

void stage_standard_records(const OrgConfig& config, const std::string& org_id, TimePoint now,
                            Transaction& tx) {
  stage_organization(config, org_id, now, tx);
  stage_users(config, now, tx);
  stage_record_types(config, now, tx);
}

const char* system_reference_field(const ObjectDef& object, std::string_view name) {
  if (iequals(name, system_field::kCreatedById)) return system_field::kCreatedById;
  if (iequals(name, system_field::kLastModifiedById)) return system_field::kLastModifiedById;
  if (iequals(name, system_field::kOwnerId) && !object.read_only) return system_field::kOwnerId;
  if (iequals(name, system_field::kRecordTypeId) && !object.record_types.empty())
    return system_field::kRecordTypeId;
  return nullptr;
}

std::string system_reference_value(const OrgConfig& config, const ObjectDef& object,
                                   const Record& r, std::string_view field) {
  if (field == system_field::kRecordTypeId) {
    const std::string name = r.text(fields::kRecordTypeName);
    const RecordTypeDef* type =
        name.empty() ? object.default_record_type() : object.record_type(name);
    return type ? record_type_id(object, *type) : std::string();
  }
  if (field == system_field::kOwnerId) {
    std::string stored = r.text(system_field::kOwnerId);
    if (!stored.empty()) return stored;
  }
  return to_id18(config.auth.integration_user().id).value_or(std::string());
}

}  // namespace fake_org
