// The REST data API's single-record writes: POST sobjects/{Type} (201 with
// the platform's save result), PATCH and DELETE sobjects/{Type}/{Id} (204).
#include "data_api.h"
#include "domain/data/sobject_write.h"

namespace fake_org::http {

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
  handlers.on("deleteSObject", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      auto done = data::delete_sobject(*ctx.org, c.params["sobject"], c.params["id"]);
      if (!done.ok()) return send_data_errors(c.res, done.errors());
      c.res.status = 204;
    });
  });
}

}  // namespace fake_org::http
