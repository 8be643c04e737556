#pragma once
// Reading one step of a scenario. Internal to loading; `defined` holds the
// variable names visible to the step and grows by the step's captures.
#include <set>
#include <string>

#include <yaml-cpp/yaml.h>

#include "scenario/load_context.h"

namespace runner {

std::optional<Step> load_step(LoadContext& ctx, const YAML::Node& node, size_t index,
                              std::set<std::string>& defined);

// An `expect` block (`what` names it in messages: "expect", "poll.halt").
Expectation load_expect(LoadContext& ctx, const YAML::Node& n, const std::set<std::string>& defined,
                        const std::string& what);

// A `bulk` step's body (scenario/bulk_loader.cpp).
BulkStep load_bulk(LoadContext& ctx, const YAML::Node& n, const std::set<std::string>& defined);

}  // namespace runner
