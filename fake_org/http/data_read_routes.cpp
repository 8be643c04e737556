// The REST data API's reads: versions, resources, describes, one record,
// SOQL queries and their next batches, limits.
#include <strings.h>

#include <cctype>

#include "data_api.h"
#include "domain/config/data_versions.h"
#include "domain/data/data_limits.h"
#include "domain/data/sobject_describe.h"
#include "domain/data/sobject_read.h"
#include "domain/data/sobject_replication.h"
#include "domain/data/tooling_query.h"
#include "domain/soql/soql.h"

namespace fake_org::http {

namespace {

template <typename T>
void send_result(httplib::Response& res, const data::DataResult<T>& r) {
  if (!r.ok()) return send_data_errors(res, r.errors());
  send_data_json(res, 200, r.value());
}

void send_page(httplib::Response& res, const soql::SoqlResult<soql::QueryPage>& page) {
  if (!page)
    return send_data_errors(res, {data::data_error(page.error().error_code, page.error().message)});
  send_data_text(res, 200, page->to_text());
}

// columns=true: the query's column metadata instead of its records.
bool asks_for_columns(const httplib::Request& req) {
  if (!req.has_param("columns")) return false;
  const std::string v = req.get_param_value("columns");
  return v.size() == 4 && strncasecmp(v.c_str(), "true", 4) == 0;
}

void send_columns(httplib::Response& res, const soql::SoqlResult<nlohmann::ordered_json>& r) {
  if (!r) return send_data_errors(res, {data::data_error(r.error().error_code, r.error().message)});
  send_data_json(res, 200, *r);
}

// Sforce-Query-Options: batchSize=N (the engine holds it to 200..2,000).
size_t batch_size_of(const httplib::Request& req) {
  const std::string options = req.get_header_value("Sforce-Query-Options");
  const size_t at = options.find("batchSize=");
  if (at == std::string::npos) return soql::kMaxBatchSize;
  size_t n = 0;
  for (size_t i = at + 10;
       i < options.size() && std::isdigit(static_cast<unsigned char>(options[i])) && n < 100000;
       ++i)
    n = n * 10 + static_cast<size_t>(options[i] - '0');
  return n == 0 ? soql::kMaxBatchSize : n;
}

void add_query_handlers(Handlers& handlers, const DataContext& ctx) {
  for (const bool all : {false, true}) {
    handlers.on(all ? "getDataQueryAll" : "getDataQuery", [ctx, all](Call& c) {
      with_version(ctx, c, [&](const std::string& version) {
        if (!c.req.has_param("q"))
          return send_data_errors(c.res, {data::data_error(data::code::kMalformedQuery,
                                                           "A query string has to be specified")});
        soql::QueryOptions options;
        options.api_version = version;
        options.include_deleted = all;
        options.batch_size = batch_size_of(c.req);
        if (asks_for_columns(c.req))
          return send_columns(c.res, soql::query_columns(*ctx.org, c.req.get_param_value("q")));
        send_page(c.res, soql::run_query(*ctx.org, c.req.get_param_value("q"), options));
      });
    });
    handlers.on(all ? "getDataQueryAllMore" : "getDataQueryMore", [ctx](Call& c) {
      with_version(ctx, c, [&](const std::string& version) {
        soql::QueryOptions options;
        options.api_version = version;
        send_page(c.res, soql::next_page(*ctx.org, c.params["locator"], options));
      });
    });
  }
}

}  // namespace

// GET /services/data/vNN.0 (resources), sobjects, describe, a record,
// query, queryAll, query locators, limits, the Tooling API's query. (GET /services/data itself, the
// versions, is an oauth-area row.)
FAKE_ORG_HANDLERS(data_read) {
  const DataContext ctx = data_context(context);
  handlers.on("getDataResources", [ctx](Call& c) {
    with_version(
        ctx, c, [&](const std::string& v) { send_data_json(c.res, 200, data::resources_json(v)); });
  });
  handlers.on("getDescribeGlobal", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string& v) {
      send_data_json(c.res, 200, data::describe_global(ctx.org->config(), v));
    });
  });
  handlers.on("getSObjectInfo", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string& v) {
      send_result(c.res, data::sobject_basic_info(*ctx.org, c.params["sobject"], v));
    });
  });
  handlers.on("getSObjectDescribe", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string& v) {
      send_result(c.res, data::describe_sobject(ctx.org->config(), c.params["sobject"], v));
    });
  });
  handlers.on("getSObject", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string& v) {
      const auto fields = data::split_field_list(c.req.get_param_value("fields"));
      send_result(c.res,
                  data::read_sobject(*ctx.org, c.params["sobject"], c.params["id"], fields, v));
    });
  });
  handlers.on("getDataLimits", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      send_data_json(c.res, 200, data::limits_json(ctx.usage->used.load(), ApiUsage::kDailyMax));
    });
  });
  for (const bool deleted : {false, true})
    handlers.on(deleted ? "getSObjectDeleted" : "getSObjectUpdated", [ctx, deleted](Call& c) {
      with_version(ctx, c, [&](const std::string&) {
        send_result(c.res, data::replication_list(
                               *ctx.org, c.params["sobject"],
                               deleted ? data::Replication::kDeleted : data::Replication::kUpdated,
                               c.req.get_param_value("start"), c.req.get_param_value("end")));
      });
    });
  handlers.on("getToolingQuery", [ctx](Call& c) {
    with_version(ctx, c, [&](const std::string&) {
      if (!c.req.has_param("q"))
        return send_data_errors(c.res, {data::data_error(data::code::kMalformedQuery,
                                                         "A query string has to be specified")});
      send_result(c.res, data::tooling_query(c.req.get_param_value("q")));
    });
  });
  add_query_handlers(handlers, ctx);
}

}  // namespace fake_org::http
