// The REST data API's sObject collections: POST, PATCH and DELETE
// composite/sobjects, 200 with a save result per record.
#include "data_api.h"
#include "domain/data/composite_sobjects.h"
#include "domain/data/sobject_read.h"

namespace fake_org::http {

namespace {

void send_results(httplib::Response& res,
                  const data::DataResult<std::vector<data::SaveResult>>& results) {
  if (!results.ok()) return send_data_errors(res, results.errors());
  send_data_json(res, 200, data::save_results_json(results.value()));
}

void on_save(Handlers& handlers, const DataContext& ctx, const char* operation,
             data::CollectionOp op) {
  handlers.on(operation, [ctx, op](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      auto body = data_body(c.req);
      if (!body.ok()) return send_data_errors(c.res, body.errors());
      send_results(c.res, data::save_collection(*ctx.org, op, *body));
    });
  });
}

}  // namespace

// POST, PATCH and DELETE composite/sobjects.
FAKE_ORG_HANDLERS(data_composite) {
  const DataContext ctx = data_context(context);
  on_save(handlers, ctx, "postCompositeSObjects", data::CollectionOp::kCreate);
  on_save(handlers, ctx, "patchCompositeSObjects", data::CollectionOp::kUpdate);
  handlers.on("deleteCompositeSObjects", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      const auto ids = data::split_field_list(c.req.get_param_value("ids"));
      const bool all_or_none = c.req.get_param_value("allOrNone") == "true";
      send_results(c.res, data::delete_collection(*ctx.org, ids, all_or_none));
    });
  });
}

}  // namespace fake_org::http
