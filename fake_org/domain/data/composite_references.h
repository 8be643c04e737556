#pragma once
// References to earlier subrequests' results in a composite or graph
// request: @{refId.field}, @{refId.records[0].Id}, @{refId.a.b[2]} in a
// subrequest's url or in any string of its body. Only a subrequest that
// came earlier and succeeded can be referenced, so references never form a
// cycle. Stateless.
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "data_errors.h"

namespace fake_org::data {

// The bodies of the subrequests that succeeded so far, by referenceId.
using ReferenceResults = std::map<std::string, nlohmann::ordered_json>;

// `text` with every @{...} replaced by the scalar it names (a number or
// boolean as its JSON text). PROCESSING_HALTED with the platform's "Invalid
// reference specified" when a reference names no earlier success or no
// scalar value.
DataResult<std::string> resolve_text(std::string_view text, const ReferenceResults& done);

// The body with its strings resolved; a string that is one whole reference
// takes the referenced value's own type (a number stays a number).
DataResult<nlohmann::json> resolve_body(const nlohmann::json& body, const ReferenceResults& done);

}  // namespace fake_org::data
