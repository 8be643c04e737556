#pragma once
// contracts/routes.yaml compiled to constant data: contracts/gen/
// route_table_gen.cpp parses and checks the file at build time and writes
// these arrays, so route_table() builds its table without parsing YAML at
// start-up. Plain data (no constructors): the arrays cost nothing to load.
#include <cstddef>

#include "route_table.h"

namespace contracts::route_data {

// A run of entries in one of the shared arrays below.
struct Span {
  int first = 0;
  int count = 0;
};

struct StatusSchema {
  int status;
  const char* schema;
};

struct Param {
  const char* name;
  ParamChars chars;
};

struct Area {
  const char* name;
  const char* mount;
  AuthKind guard;
  const char* not_found;
  bool has_contract;
  Span every_route;  // in kStatuses
  Span no_route;
  Span wrong_method;
  const char* lenient_route_error;
  const char* lenient_other_error;
};

struct Row {
  const char* operation_id;
  const char* method;
  const char* path;
  const char* area;
  AuthKind auth;
  RequestContent request;
  const char* request_schema;
  Span responses;       // in kStatuses
  Span text_responses;  // in kTextStatuses
  Span params;          // in kParams
  const char* summary;
  bool openapi;
  int line;
};

// Each array ends with one unused entry, so none is empty.
extern const StatusSchema kStatuses[];
extern const int kTextStatuses[];
extern const Param kParams[];
extern const Area kAreas[];
extern const std::size_t kAreaCount;
extern const Row kRows[];
extern const std::size_t kRowCount;

}  // namespace contracts::route_data
