// The REST data API's single-record writes: POST sobjects/{Type} (201 with
// the platform's save result), PATCH and DELETE sobjects/{Type}/{Id} (204),
// upsert PATCH sobjects/{Type}/{Field}/{value}.
#include <cstdlib>

#include "data_api.h"
#include "domain/data/sobject_upsert.h"
#include "domain/data/sobject_write.h"

namespace fake_org::http {

namespace {

// 201 created; 200 with created false from API 46.0, 204 before; 300 with
// the matching records' URLs.
void send_upsert(httplib::Response& res, const std::string& version, const std::string& type,
                 const data::UpsertOutcome& outcome) {
  if (!outcome.matches.empty()) {
    nlohmann::ordered_json urls = nlohmann::ordered_json::array();
    for (const auto& id : outcome.matches)
      urls.push_back("/services/data/v" + version + "/sobjects/" + type + "/" + id);
    return send_data_json(res, 300, urls);
  }
  if (!outcome.created && std::atof(version.c_str()) < 46.0) {
    res.status = 204;
    return;
  }
  send_data_json(res, outcome.created ? 201 : 200,
                 {{"id", outcome.id},
                  {"success", true},
                  {"errors", nlohmann::ordered_json::array()},
                  {"created", outcome.created}});
}

}  // namespace

// POST sobjects/{Type}, PATCH and DELETE sobjects/{Type}/{Id}.
FAKE_ORG_HANDLERS(data_write) {
  const DataContext ctx = data_context(context);
  handlers.on("postSObject", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      auto body = data_body(c.req);
      if (!body.ok()) return send_data_errors(c.res, body.errors());
      auto id = data::create_sobject(*ctx.org, c.params["sobject"], *body);
      if (!id.ok()) return send_data_errors(c.res, id.errors());
      send_data_json(c.res, 201,
                     {{"id", *id}, {"success", true}, {"errors", nlohmann::ordered_json::array()}});
    });
  });
  handlers.on("patchSObject", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      auto body = data_body(c.req);
      if (!body.ok()) return send_data_errors(c.res, body.errors());
      auto done = data::update_sobject(*ctx.org, c.params["sobject"], c.params["id"], *body);
      if (!done.ok()) return send_data_errors(c.res, done.errors());
      c.res.status = 204;
    });
  });
  handlers.on("upsertSObject", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string& version) {
      auto body = data_body(c.req);
      if (!body.ok()) return send_data_errors(c.res, body.errors());
      auto outcome = data::upsert_sobject(*ctx.org, c.params["sobject"], c.params["field"],
                                          c.params["value"], *body);
      if (!outcome.ok()) return send_data_errors(c.res, outcome.errors());
      const std::string type = ctx.org->config().object(c.params["sobject"])->api_name;
      send_upsert(c.res, version, type, *outcome);
    });
  });
  handlers.on("deleteSObject", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      auto done = data::delete_sobject(*ctx.org, c.params["sobject"], c.params["id"]);
      if (!done.ok()) return send_data_errors(c.res, done.errors());
      c.res.status = 204;
    });
  });
}

}  // namespace fake_org::http
