#include "commands/explore/sweep.h"

#include <map>
#include <mutex>
#include <set>

#include "commands/explore/mutations.h"
#include "commands/explore/operations.h"
#include "commands/explore/schema_facts.h"
#include "commands/explore/sequences.h"

namespace runner::explore {

namespace {

// Valid cases drawn to find the (operation, property) pairs a run sends.
constexpr uint64_t kSweepSamples = 256;
// Tries to find a valid case that reaches an operation (or holds a pointer).
constexpr uint64_t kSweepTries = 512;

Case sweep_valid(const TargetFacts& facts, uint64_t seed, uint64_t k) {
  return valid_case(facts, seed ^ (0x5EE9C0FFEEULL * (k + 1)), k);
}

// The last step of `c` that is `op` (with `pointer` in its body); npos: none.
size_t sweep_step(const Case& c, const std::string& op, const std::string& pointer) {
  for (size_t i = c.meta.size(); i-- > 0;) {
    if (c.meta[i].op != op) continue;
    const auto* rs = std::get_if<RequestStep>(&c.scenario.steps[i].body);
    if (pointer.empty()) return i;
    if (rs && rs->request.json.is_object() &&
        rs->request.json.contains(nlohmann::json::json_pointer(pointer)))
      return i;
  }
  return std::string::npos;
}

void sweep_properties(const Case& c, std::set<std::string>& seen, std::vector<SweepTarget>& out) {
  for (size_t i = 0; i < c.meta.size(); ++i) {
    const auto* rs = std::get_if<RequestStep>(&c.scenario.steps[i].body);
    if (!rs || c.meta[i].op.empty() || !rs->request.json.is_object()) continue;
    const std::string schema = request_schema_name(rs->request.method, rs->request.path);
    if (schema.empty()) continue;
    for (const auto& p : value_pointers(rs->request.json))
      if (seen.insert(schema + "#" + p).second) out.push_back({c.meta[i].op, true, p});
  }
}

std::vector<SweepTarget> sweep_make(const TargetFacts& facts, uint64_t seed) {
  std::vector<SweepTarget> out;
  for (const auto& op : operations()) {
    out.push_back({op.name, false, ""});
    if (op.await.is_null() && (op.body || op.raw || op.path.find("${") != std::string::npos))
      out.push_back({op.name, true, ""});
  }
  std::set<std::string> seen;
  for (uint64_t k = 0; k < kSweepSamples; ++k)
    sweep_properties(sweep_valid(facts, seed, k), seen, out);
  return out;
}

std::optional<Case> sweep_near_of(const Case& valid, uint64_t seed, const SweepTarget& t,
                                  size_t index) {
  const size_t at = sweep_step(valid, t.op, t.pointer);
  if (at == std::string::npos) return std::nullopt;
  if (!t.pointer.empty()) return near_miss_at(valid, at, t.pointer);
  Case c = near_miss_on(valid, at, seed, index);
  if (c.mutation.empty()) return std::nullopt;
  return c;
}

std::optional<Case> sweep_near(const TargetFacts& facts, uint64_t seed, const SweepTarget& t,
                               size_t index) {
  for (uint64_t k = 0; k < kSweepTries; ++k)
    if (auto c = sweep_near_of(sweep_valid(facts, seed, k), seed, t, index)) return c;
  // Deep in a chain (a Bulk job's results): the shortest way there.
  if (auto valid = valid_case_to(facts, seed, index, t.op))
    return sweep_near_of(*valid, seed, t, index);
  return std::nullopt;
}

}  // namespace

std::vector<SweepTarget> sweep_targets(const TargetFacts& facts, uint64_t seed) {
  static std::mutex mutex;
  static std::map<std::string, std::vector<SweepTarget>> cache;
  std::string key = std::to_string(seed) + "|" + facts.api_version;
  for (const auto& m : facts.methods) key += "|" + m.name + (m.recurring ? "+" : "-");
  for (const auto& f : facts.frequencies) key += "|" + f;
  for (const auto& f : facts.account_fields) key += "|" + f.name;
  key += "|" + facts.account_external_id;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, sweep_make(facts, seed)).first;
  return it->second;
}

std::optional<Case> sweep_case(const TargetFacts& facts, uint64_t seed, size_t index) {
  const auto targets = sweep_targets(facts, seed);
  if (index >= targets.size()) return std::nullopt;
  const SweepTarget& t = targets[index];
  std::optional<Case> c;
  if (t.near) {
    c = sweep_near(facts, seed, t, index);
  } else {
    for (uint64_t k = 0; k < kSweepTries && !c; ++k) {
      Case v = sweep_valid(facts, seed, k);
      if (sweep_step(v, t.op, "") != std::string::npos) c = std::move(v);
    }
    if (!c) c = valid_case_to(facts, seed, index, t.op);
  }
  if (c) c->index = index;
  return c;
}

}  // namespace runner::explore
