#pragma once
// A request target's query string as httplib 0.11 reads it into
// Request::params, without its per-call std::function, std::set and copies
// (decision 214): the plain path serves a GET that carries one (a SOQL query,
// a page size) and must see the very params httplib's own parse would.
//
// What httplib does, kept here: pairs split on '&', each trimmed of spaces
// and tabs and skipped when empty or seen before verbatim; a pair split on
// '=' into its first non-empty part (the key) and its last (the value); a
// pair without a key dropped; both percent-decoded with '+' as a space and
// "%uXXXX" as the code point's UTF-8.
#include <string_view>

#include "httplib_seam.h"

namespace fake_org::net {

void parse_query_text(std::string_view query, httplib::Params& params);

}  // namespace fake_org::net
