#include "auth/identity.h"

#include <cctype>
#include <utility>

namespace fake_org {
namespace {

// Standard offsets in minutes of the zones fixtures are likely to name.
constexpr std::pair<const char*, int> kZones[] = {
    {"GMT", 0},
    {"UTC", 0},
    {"Etc/UTC", 0},
    {"Europe/London", 0},
    {"Europe/Dublin", 0},
    {"Europe/Lisbon", 0},
    {"Europe/Amsterdam", 60},
    {"Europe/Berlin", 60},
    {"Europe/Brussels", 60},
    {"Europe/Copenhagen", 60},
    {"Europe/Madrid", 60},
    {"Europe/Oslo", 60},
    {"Europe/Paris", 60},
    {"Europe/Prague", 60},
    {"Europe/Rome", 60},
    {"Europe/Stockholm", 60},
    {"Europe/Vienna", 60},
    {"Europe/Warsaw", 60},
    {"Europe/Zurich", 60},
    {"Africa/Lagos", 60},
    {"Europe/Athens", 120},
    {"Europe/Helsinki", 120},
    {"Africa/Johannesburg", 120},
    {"Europe/Istanbul", 180},
    {"Europe/Moscow", 180},
    {"Africa/Nairobi", 180},
    {"Asia/Dubai", 240},
    {"Asia/Kolkata", 330},
    {"Asia/Singapore", 480},
    {"Asia/Hong_Kong", 480},
    {"Asia/Shanghai", 480},
    {"Asia/Tokyo", 540},
    {"Australia/Sydney", 600},
    {"Pacific/Auckland", 720},
    {"America/Sao_Paulo", -180},
    {"America/New_York", -300},
    {"America/Toronto", -300},
    {"America/Chicago", -360},
    {"America/Mexico_City", -360},
    {"America/Denver", -420},
    {"America/Phoenix", -420},
    {"America/Los_Angeles", -480},
    {"America/Anchorage", -540},
    {"Pacific/Honolulu", -600},
};

// The platform writes "2021-09-24T20:27:45Z": no fraction.
std::string platform_time(TimePoint t) {
  std::string s = format_iso8601(t);
  size_t dot = s.find('.');
  if (dot != std::string::npos) s.erase(dot, s.size() - 1 - dot);
  return s;
}

std::string nickname(const UserDef& user) {
  return user.username.substr(0, user.username.find('@'));
}

nlohmann::json nullable(const std::string& s) {
  return s.empty() ? nlohmann::json() : nlohmann::json(s);
}

nlohmann::ordered_json photos(const IdentitySite& site) {
  nlohmann::ordered_json p;
  p["picture"] = site.instance_url + "/profilephoto/005/F";
  p["thumbnail"] = site.instance_url + "/profilephoto/005/T";
  return p;
}

// The org's API endpoints (the platform's order); SOAP URLs name the
// 15-character org id.
nlohmann::ordered_json urls(const IdentitySite& site, const UserDef& user) {
  const std::string v = site.version.empty() ? std::string("{version}") : site.version;
  const std::string& i = site.instance_url;
  const std::string org15 = site.org_id.substr(0, 15);
  const std::string data = i + "/services/data/v" + v + "/";
  nlohmann::ordered_json u;
  u["enterprise"] = i + "/services/Soap/c/" + v + "/" + org15;
  u["metadata"] = i + "/services/Soap/m/" + v + "/" + org15;
  u["partner"] = i + "/services/Soap/u/" + v + "/" + org15;
  u["rest"] = data;
  u["sobjects"] = data + "sobjects/";
  u["search"] = data + "search/";
  u["query"] = data + "query/";
  u["recent"] = data + "recent/";
  u["tooling_soap"] = i + "/services/Soap/T/" + v + "/" + org15;
  u["tooling_rest"] = data + "tooling/";
  u["profile"] = i + "/" + user.id;
  u["feeds"] = data + "chatter/feeds";
  u["groups"] = data + "chatter/groups";
  u["users"] = data + "chatter/users";
  u["feed_items"] = data + "chatter/feed-items";
  u["feed_elements"] = data + "chatter/feed-elements";
  u["custom_domain"] = i;
  return u;
}

}  // namespace

std::string identity_url(std::string_view instance_url, bool sandbox, std::string_view org_id,
                         std::string_view user_id) {
  return std::string(instance_url) + (sandbox ? "/test" : "/login") + "/id/" + std::string(org_id) +
         "/" + std::string(user_id);
}

int64_t utc_offset_millis(std::string_view time_zone) {
  for (const auto& [name, minutes] : kZones) {
    if (time_zone == name) return int64_t{minutes} * 60 * 1000;
  }
  return 0;
}

std::string api_version(std::string_view requested) {
  if (requested == "latest") return kLatestApiVersion;
  std::string_view major = requested;
  if (major.size() > 2 && major.substr(major.size() - 2) == ".0") major.remove_suffix(2);
  if (major.empty() || major.size() > 3) return std::string();
  for (char c : major) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::string();
  }
  return std::string(major) + ".0";
}

nlohmann::ordered_json identity_body(const IdentitySite& site, const UserDef& user) {
  nlohmann::ordered_json b;
  b["id"] = identity_url(site.instance_url, site.sandbox, site.org_id, user.id);
  b["asserted_user"] = true;
  b["user_id"] = user.id;
  b["organization_id"] = site.org_id;
  b["username"] = user.username;
  b["nick_name"] = nickname(user);
  b["display_name"] = user.display_name();
  b["email"] = user.email;
  b["email_verified"] = true;
  b["first_name"] = nullable(user.first_name);
  b["last_name"] = user.last_name;
  b["timezone"] = user.time_zone;
  b["photos"] = photos(site);
  for (const char* field :
       {"addr_street", "addr_city", "addr_state", "addr_country", "addr_zip", "mobile_phone"}) {
    b[field] = nullptr;
  }
  b["mobile_phone_verified"] = false;
  b["is_lightning_login_user"] = false;
  b["status"] = {{"created_date", nullptr}, {"body", nullptr}};
  b["urls"] = urls(site, user);
  b["active"] = true;
  b["user_type"] = "STANDARD";
  b["language"] = user.language;
  b["locale"] = user.locale;
  b["utcOffset"] = utc_offset_millis(user.time_zone);
  b["last_modified_date"] = platform_time(site.last_modified);
  b["is_app_installed"] = true;
  return b;
}

nlohmann::ordered_json userinfo_body(const IdentitySite& site, const UserDef& user) {
  nlohmann::ordered_json b;
  b["sub"] = identity_url(site.instance_url, site.sandbox, site.org_id, user.id);
  b["user_id"] = user.id;
  b["organization_id"] = site.org_id;
  b["preferred_username"] = user.username;
  b["nickname"] = nickname(user);
  b["name"] = user.display_name();
  b["email"] = user.email;
  b["email_verified"] = true;
  b["given_name"] = nullable(user.first_name);
  b["family_name"] = user.last_name;
  b["zoneinfo"] = user.time_zone;
  b["photos"] = photos(site);
  b["profile"] = site.instance_url + "/" + user.id;
  b["picture"] = site.instance_url + "/profilephoto/005/F";
  b["address"] = nlohmann::ordered_json::object();
  b["urls"] = urls(site, user);
  b["active"] = true;
  b["user_type"] = "STANDARD";
  b["language"] = user.language;
  b["locale"] = user.locale;
  b["utcOffset"] = utc_offset_millis(user.time_zone);
  b["updated_at"] = platform_time(site.last_modified);
  b["is_app_installed"] = true;
  return b;
}

}  // namespace fake_org
