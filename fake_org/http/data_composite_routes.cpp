// The REST data API's sObject collections: POST, PATCH and DELETE
// composite/sobjects, 200 with a save result per record.
#include "data_api.h"
#include "domain/data/composite_sobjects.h"
#include "domain/data/sobject_read.h"
#include "domain/data/sobject_upsert.h"

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

// {"ids": [...], "fields": [...]}: both lists of strings.
bool string_list(const nlohmann::json& body, const char* key, std::vector<std::string>& out) {
  if (!body.is_object() || !body.contains(key) || !body[key].is_array()) return false;
  for (const auto& item : body[key]) {
    if (!item.is_string()) return false;
    out.push_back(item.get<std::string>());
  }
  return true;
}

void add_retrieve_handlers(Handlers& handlers, const DataContext& ctx) {
  handlers.on("getCompositeSObjectsRetrieve", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string& version) {
      const auto ids = data::split_field_list(c.req.get_param_value("ids"));
      const auto fields = data::split_field_list(c.req.get_param_value("fields"));
      auto out = data::retrieve_collection(*ctx.org, c.params["sobject"], ids, fields, version);
      if (!out.ok()) return send_data_errors(c.res, out.errors());
      send_data_json(c.res, 200, *out);
    });
  });
  handlers.on("postCompositeSObjectsRetrieve", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string& version) {
      auto body = data_body(c.req);
      if (!body.ok()) return send_data_errors(c.res, body.errors());
      std::vector<std::string> ids, fields;
      if (!string_list(*body, "ids", ids) || !string_list(*body, "fields", fields))
        return send_data_errors(
            c.res, {data::data_error(data::code::kJsonParserError,
                                     "The body must be {\"ids\": [...], \"fields\": [...]}, "
                                     "both lists of strings")});
      auto out = data::retrieve_collection(*ctx.org, c.params["sobject"], ids, fields, version);
      if (!out.ok()) return send_data_errors(c.res, out.errors());
      send_data_json(c.res, 200, *out);
    });
  });
}

}  // namespace

// POST, PATCH and DELETE composite/sobjects; retrieve and upsert by type.
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
  handlers.on("upsertCompositeSObjects", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      auto body = data_body(c.req);
      if (!body.ok()) return send_data_errors(c.res, body.errors());
      send_results(
          c.res, data::upsert_collection(*ctx.org, c.params["sobject"], c.params["field"], *body));
    });
  });
  add_retrieve_handlers(handlers, ctx);
}

}  // namespace fake_org::http
