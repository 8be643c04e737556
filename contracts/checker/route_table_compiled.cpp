// route_table(): the table as the build compiled it (route_table_data.h).
#include "route_table.h"
#include "route_table_data.h"

namespace contracts {
namespace {

std::map<int, std::string> status_map(route_data::Span span) {
  std::map<int, std::string> out;
  for (int i = span.first; i < span.first + span.count; ++i)
    out.emplace(route_data::kStatuses[i].status, route_data::kStatuses[i].schema);
  return out;
}

RouteArea area_of(const route_data::Area& a) {
  RouteArea out;
  out.name = a.name;
  out.mount = a.mount;
  out.guard = a.guard;
  out.not_found = a.not_found;
  out.has_contract = a.has_contract;
  out.contract.every_route = status_map(a.every_route);
  out.contract.no_route = status_map(a.no_route);
  out.contract.wrong_method = status_map(a.wrong_method);
  out.contract.lenient_route_error = a.lenient_route_error;
  out.contract.lenient_other_error = a.lenient_other_error;
  return out;
}

RouteRow row_of(const route_data::Row& r) {
  RouteRow out;
  out.operation_id = r.operation_id;
  out.method = r.method;
  out.path = r.path;
  out.area = r.area;
  out.auth = r.auth;
  out.request = r.request;
  out.request_schema = r.request_schema;
  out.responses = status_map(r.responses);
  const route_data::Span text = r.text_responses;
  for (int i = text.first; i < text.first + text.count; ++i)
    out.text_responses.insert(route_data::kTextStatuses[i]);
  for (int i = r.params.first; i < r.params.first + r.params.count; ++i)
    out.params.emplace(route_data::kParams[i].name, route_data::kParams[i].chars);
  out.summary = r.summary;
  out.openapi = r.openapi;
  out.line = r.line;
  return out;
}

}  // namespace

const RouteTable& route_table() {
  static const RouteTable table = [] {
    RouteTable t;
    t.areas.reserve(route_data::kAreaCount);
    for (std::size_t i = 0; i < route_data::kAreaCount; ++i)
      t.areas.push_back(area_of(route_data::kAreas[i]));
    t.rows.reserve(route_data::kRowCount);
    for (std::size_t i = 0; i < route_data::kRowCount; ++i)
      t.rows.push_back(row_of(route_data::kRows[i]));
    return t;
  }();
  return table;
}

}  // namespace contracts
