#pragma once
// One subrequest of a composite, graph or batch request, run through the
// site's own router: the handler the direct request would reach, with the
// outer request's headers (its token among them) and the subrequest's own.
// Only the REST data API is reachable, and never the composite family
// itself.
//
// Locking rule: no state of its own; the router is immutable once serving.
// A subrequest runs on the outer request's thread, inside whatever
// transaction the caller opened (data::all_or_none).
#include <string>

#include <nlohmann/json.hpp>

#include "domain/data/composite_request.h"
#include "router.h"
#include "routes.h"

namespace fake_org::http {

struct SubrequestAnswer {
  int status = 0;
  nlohmann::ordered_json body;  // null when the handler wrote none (204)
  nlohmann::ordered_json headers = nlohmann::ordered_json::object();
  bool failed() const { return status >= 400; }
};

// `url` and `body` are the subrequest's with its references resolved.
SubrequestAnswer run_subrequest(const SiteRouter& site, const Call& outer,
                                const data::Subrequest& sub, const std::string& url,
                                const nlohmann::json& body);

// An answer that is the platform's error list [{errorCode, message}] (and
// fields when any) with `status`.
SubrequestAnswer error_answer(int status, const data::DataErrors& errors);

}  // namespace fake_org::http
