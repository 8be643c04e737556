#include "commands/explore/sweep.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include "commands/explore/coverage.h"
#include "commands/explore/mutations.h"
#include "commands/explore/operations.h"
#include "commands/explore/schema_facts.h"
#include "commands/explore/sequences.h"

namespace runner::explore {

namespace {

// Other seeds tried for a case whose body holds a pointer (a body's members
// may depend on the method drawn).
constexpr uint64_t kSweepTries = 16;
// The sweep's valid parts are made as cases from this index on.
constexpr size_t kSweepValidIndex = 1000000;
// Steps of the sweep's valid cases run as one case at most.
constexpr size_t kSweepJoin = 8;

struct SweepEntry {
  SweepTarget target;
  std::optional<Case> c;
};

// The last step of `c` that is `op`, or the last that has `pointer` in its
// body and states no rule (an idempotent replay changed would answer for
// its key, not the change); npos: none.
size_t sweep_step(const Case& c, const std::string& op, const std::string& pointer) {
  for (size_t i = c.meta.size(); i-- > 0;) {
    if (c.meta[i].op != op || (!pointer.empty() && !c.meta[i].rule.empty())) continue;
    const auto* rs = std::get_if<RequestStep>(&c.scenario.steps[i].body);
    if (pointer.empty()) return i;
    if (rs && rs->request.json.is_object() &&
        rs->request.json.contains(nlohmann::json::json_pointer(pointer)))
      return i;
  }
  return std::string::npos;
}

bool sweep_changeable(const Operation& op) {
  return op.await.is_null() && (op.body || op.raw || op.path.find("${") != std::string::npos);
}

// Operations deepest in their chains first: a case that reaches one reaches
// the operations on its way, which then need no valid case of their own.
std::vector<const Operation*> sweep_deepest_first(const TargetFacts& facts, uint64_t seed) {
  std::vector<std::pair<size_t, const Operation*>> depth;
  for (const auto& op : operations()) {
    const auto c = valid_case_to(facts, seed, 0, op.name, Fill::kNone);
    if (c) depth.emplace_back(c->meta.size(), &op);
  }
  std::stable_sort(depth.begin(), depth.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<const Operation*> out;
  for (const auto& [n, op] : depth) out.push_back(op);
  return out;
}

size_t sweep_position(const Operation* op) {
  return static_cast<size_t>(op - operations().data());
}

// A valid case reaching every operation, each body with every optional
// member the target's facts allow: every property the explorer can send.
// The cases are the fewest that reach every operation (deepest chains
// first), run in the table's order (the configuration reads first).
void sweep_valid(const TargetFacts& facts, uint64_t seed, std::vector<SweepEntry>& out) {
  std::set<std::string> reached;
  std::vector<const Operation*> chosen;
  for (const Operation* op : sweep_deepest_first(facts, seed)) {
    if (reached.count(op->name)) continue;
    const auto c = valid_case_to(facts, seed, 0, op->name, Fill::kNone);
    for (const auto& m : c->meta) reached.insert(m.op);
    chosen.push_back(op);
  }
  std::sort(chosen.begin(), chosen.end(), [](const Operation* a, const Operation* b) {
    return sweep_position(a) < sweep_position(b);
  });
  // Made again at their own indexes; an operation one no longer reaches (a
  // step its index drew) gets a case of its own.
  reached.clear();
  auto add = [&](const Operation& op) {
    // Indexes of their own: the parts' tags (names, idempotency keys) are
    // no other case's, which a shared org would tell apart.
    auto c = valid_case_to(facts, seed, kSweepValidIndex + out.size(), op.name, Fill::kAll);
    if (!c) return;
    for (const auto& m : c->meta) reached.insert(m.op);
    out.push_back({{op.name, false, ""}, std::move(c)});
  };
  for (const Operation* op : chosen) add(*op);
  for (const auto& op : operations())
    if (!reached.count(op.name)) add(op);
}

// `b`'s steps after `a`'s, in one org: each part uses only what its own
// steps captured (a later capture of the same name comes after its use).
void sweep_join(Case& a, const Case& b) {
  std::set<std::string> names;
  for (const auto& s : a.scenario.steps) names.insert(s.name);
  for (size_t i = 0; i < b.scenario.steps.size(); ++i) {
    Step s = b.scenario.steps[i];
    for (int n = 2; names.count(s.name); ++n)
      s.name = b.scenario.steps[i].name + " [" + std::to_string(n) + "]";
    names.insert(s.name);
    a.scenario.steps.push_back(std::move(s));
    a.meta.push_back(b.meta[i]);
  }
}

// The valid cases joined a few at a time (kSweepJoin steps at most): fewer
// cases for the same requests, more of the budget left to chance.
void sweep_join_valid(std::vector<SweepEntry>& out) {
  std::vector<SweepEntry> joined;
  for (auto& e : out) {
    if (!joined.empty() && joined.back().c->meta.size() + e.c->meta.size() <= kSweepJoin)
      sweep_join(*joined.back().c, *e.c);
    else
      joined.push_back(std::move(e));
  }
  out = std::move(joined);
}

// A near-miss of a case reaching `op`, changing `op`'s step by `family` (""
// : the one the case index picks); none when no case reaches it or nothing
// there changes.
void sweep_near_of(const TargetFacts& facts, uint64_t seed, const Operation& op,
                   const std::string& family, std::vector<SweepEntry>& out) {
  const size_t index = out.size();
  std::optional<Case> near;
  if (auto valid = valid_case_to(facts, seed, index, op.name)) {
    const size_t at = sweep_step(*valid, op.name, "");
    if (at != std::string::npos) {
      Case c = near_miss_on(*valid, at, seed, index, family);
      if (!c.mutation.empty()) near = std::move(c);
    }
  }
  out.push_back({{op.name, true, ""}, std::move(near)});
}

// A near-miss of each operation that has a body or an id, the family picked
// by the case index.
void sweep_near_ops(const TargetFacts& facts, uint64_t seed, std::vector<SweepEntry>& out) {
  for (const auto& op : operations())
    if (sweep_changeable(op)) sweep_near_of(facts, seed, op, "", out);
}

// Each route that takes a JSON body sent it as text/plain once: every route
// reads its body itself (the payment API, the data API, composite, Bulk), so
// each decides alone what it does with a type it does not take.
void sweep_content_types(const TargetFacts& facts, uint64_t seed, std::vector<SweepEntry>& out) {
  std::set<std::string> routes;
  for (const auto& op : operations())
    if (op.body && op.await.is_null() && routes.insert(op.operation_id).second)
      sweep_near_of(facts, seed, op, "wrong_content_type", out);
}

// A near-miss at `pointer` of `op`'s body: a case reaching `op` whose body
// holds it, its value just outside the schema (else of another type).
std::optional<Case> sweep_near_at(const TargetFacts& facts, uint64_t seed, size_t index,
                                  const std::string& op, const std::string& pointer) {
  for (uint64_t k = 0; k < kSweepTries; ++k) {
    const auto valid =
        valid_case_to(facts, k == 0 ? seed : seed ^ (0x5EE9C0FFEEULL * k), index, op, Fill::kAll);
    if (!valid) return std::nullopt;
    const size_t at = sweep_step(*valid, op, pointer);
    if (at != std::string::npos) return near_miss_at(*valid, at, pointer);
  }
  return std::nullopt;
}

// A near-miss of each property the valid cases sent that no near-miss so far changed.
void sweep_near_properties(const TargetFacts& facts, uint64_t seed, std::vector<SweepEntry>& out) {
  std::vector<Case> so_far;
  for (const auto& e : out)
    if (e.c) so_far.push_back(*e.c);
  const Coverage covered = coverage(so_far);
  std::set<std::string> seen;
  const size_t valid_entries = out.size();
  for (size_t e = 0; e < valid_entries; ++e) {
    if (out[e].target.near || !out[e].c) continue;
    const Case valid = *out[e].c;  // a copy: `out` grows below
    for (size_t i = 0; i < valid.meta.size(); ++i) {
      const auto* rs = std::get_if<RequestStep>(&valid.scenario.steps[i].body);
      if (!rs || valid.meta[i].op.empty() || !rs->request.json.is_object()) continue;
      const std::string schema = request_schema_name(rs->request.method, rs->request.path);
      if (schema.empty()) continue;
      for (const auto& p : value_pointers(rs->request.json)) {
        const std::string key = property_key(schema, p);
        const auto it = covered.properties.find(key);
        if (it == covered.properties.end() || it->second.near_miss || !seen.insert(key).second)
          continue;
        const std::string& op = valid.meta[i].op;
        out.push_back({{op, true, p}, sweep_near_at(facts, seed, out.size(), op, p)});
      }
    }
  }
}

std::vector<SweepEntry> sweep_make(const TargetFacts& facts, uint64_t seed) {
  std::vector<SweepEntry> out;
  sweep_valid(facts, seed, out);
  sweep_join_valid(out);
  sweep_near_ops(facts, seed, out);
  sweep_content_types(facts, seed, out);
  sweep_near_properties(facts, seed, out);
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i].c) out[i].c->index = i;
  return out;
}

// The sweep of (seed, facts), made once per process.
const std::vector<SweepEntry>& sweep_entries(const TargetFacts& facts, uint64_t seed) {
  // Locking rule: `mutex` guards `cache`; an entry, once made, is never changed.
  static std::mutex mutex;
  static std::map<std::string, std::vector<SweepEntry>> cache;
  const std::string key = std::to_string(seed) + "|" + facts_key(facts);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, sweep_make(facts, seed)).first;
  return it->second;
}

}  // namespace

std::vector<SweepTarget> sweep_targets(const TargetFacts& facts, uint64_t seed) {
  std::vector<SweepTarget> out;
  for (const auto& e : sweep_entries(facts, seed)) out.push_back(e.target);
  return out;
}

std::optional<Case> sweep_case(const TargetFacts& facts, uint64_t seed, size_t index) {
  const auto& entries = sweep_entries(facts, seed);
  if (index >= entries.size()) return std::nullopt;
  return entries[index].c;
}

}  // namespace runner::explore
