#include "eval/json_diff.h"

#include <optional>
#include <sstream>
#include <utility>
#include <vector>

namespace runner {
namespace {

using View = std::optional<Json>;

// Items of an actual array shown beside a failed matcher ($contains over
// 200 records): its message says what was missing, the first items show
// the shape, the rest is counted.
constexpr size_t kArrayItemsShown = 3;

Json trimmed(const Json& a) {
  if (!a.is_array() || a.size() <= kArrayItemsShown + 1) return a;
  Json out = Json::array();
  for (size_t i = 0; i < kArrayItemsShown; ++i) out.push_back(a[i]);
  out.push_back("... " + std::to_string(a.size() - kArrayItemsShown) + " more items");
  return out;
}

std::pair<View, View> views(const Json& e, const Json* a, const MatchOptions& o);

// The same placeholder on both sides, so a run of items that hold is one
// line of context in the diff rather than their whole text.
void push_alike(Json& ev, Json& av, const std::string& text) {
  ev.push_back(text);
  av.push_back(text);
}

// `$each` over an array: the items that fail, each cut to what the matcher
// talks about (the field that differs, not the keys it ignores); runs of
// items that hold, and the failures past the first few, only counted.
std::pair<View, View> each_views(const Json& arg, const Json& a, const MatchOptions& o) {
  Json ev = Json::array(), av = Json::array();
  size_t holding = 0, failing = 0;
  auto flush = [&] {
    if (holding)
      push_alike(ev, av,
                 "(" + std::to_string(holding) +
                     (holding == 1 ? " item that matches)" : " items that match)"));
    holding = 0;
  };
  for (size_t i = 0; i < a.size(); ++i) {
    if (match_json(arg, &a[i], o).empty()) {
      ++holding;
      continue;
    }
    if (++failing > kArrayItemsShown) continue;
    flush();
    auto [x, y] = views(arg, &a[i], o);
    ev.push_back(x ? *x : Json());
    av.push_back(y ? *y : Json());
  }
  flush();
  if (failing > kArrayItemsShown)
    push_alike(ev, av,
               "(" + std::to_string(failing - kArrayItemsShown) + " more items that differ)");
  return {View(ev), View(av)};
}

// `$contains` over an array: for each wanted item no item matches, the
// closest item (fewest mismatches) beside it, cut to what it talks about.
std::pair<View, View> contains_views(const Json& arg, const Json& a, const MatchOptions& o) {
  const Json wanted = arg.is_array() ? arg : Json::array({arg});
  Json ev = Json::array(), av = Json::array();
  for (const auto& w : wanted) {
    size_t best = a.size(), best_count = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      const size_t count = match_json(w, &a[i], o).size();
      if (count == 0) {
        best = a.size() + 1;  // found: nothing to show
        break;
      }
      if (best == a.size() || count < best_count) best = i, best_count = count;
    }
    if (best > a.size()) continue;
    if (best == a.size()) {  // an empty array: the wanted item against nothing
      ev.push_back(w);
      continue;
    }
    auto [x, y] = views(w, &a[best], o);
    ev.push_back(x ? *x : Json());
    av.push_back(y ? *y : Json());
  }
  return {View(ev), View(av)};
}

std::pair<View, View> views(const Json& e, const Json* a, const MatchOptions& o) {
  if (is_matcher(e)) {
    bool ok = match_json(e, a, o).empty();
    View actual = a ? View(*a) : std::nullopt;
    if (ok) return {actual, actual};
    // A lone $each or $contains over an array shows the items themselves.
    if (a && a->is_array() && e.size() == 1 && e.contains("$each"))
      return each_views(e["$each"], *a, o);
    if (a && a->is_array() && e.size() == 1 && e.contains("$contains"))
      return contains_views(e["$contains"], *a, o);
    return {View(e), a ? View(trimmed(*a)) : std::nullopt};
  }
  if (!a) return {View(e), std::nullopt};
  if (e.is_object() && a->is_object()) {
    Json ev = Json::object(), av = Json::object();
    for (const auto& [k, sub] : e.items()) {
      auto it = a->find(k);
      auto [x, y] = views(sub, it == a->end() ? nullptr : &*it, o);
      if (x) ev[k] = *x;
      if (y) av[k] = *y;
    }
    if (o.exact)
      for (const auto& [k, sub] : a->items())
        if (!e.contains(k)) av[k] = sub;
    return {View(ev), View(av)};
  }
  if (e.is_array() && a->is_array()) {
    Json ev = Json::array(), av = Json::array();
    for (size_t i = 0; i < std::max(e.size(), a->size()); ++i) {
      if (i < e.size() && i < a->size()) {
        auto [x, y] = views(e[i], &(*a)[i], o);
        ev.push_back(x ? *x : Json());
        av.push_back(y ? *y : Json());
      } else if (i < e.size()) {
        ev.push_back(e[i]);
      } else {
        av.push_back((*a)[i]);
      }
    }
    return {View(ev), View(av)};
  }
  return {View(e), View(*a)};
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

std::string line_diff(const std::string& expected, const std::string& actual, int context,
                      size_t max_lines) {
  const auto a = lines_of(expected), b = lines_of(actual);
  const size_t n = a.size(), m = b.size();
  if (n * m > 4'000'000) return "(bodies too large to diff)\n";
  // Longest common subsequence table, then walk it to emit the edit script.
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<std::pair<char, std::string>> ops;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      ops.emplace_back(' ', a[i++]);
      ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      ops.emplace_back('-', a[i++]);  // removals first, as diff(1) prints them
    } else {
      ops.emplace_back('+', b[j++]);
    }
  }
  std::vector<bool> keep(ops.size(), false);
  bool any = false;
  for (size_t k = 0; k < ops.size(); ++k) {
    if (ops[k].first == ' ') continue;
    any = true;
    size_t lo = k >= static_cast<size_t>(context) ? k - context : 0;
    size_t hi = std::min(ops.size(), k + context + 1);
    for (size_t x = lo; x < hi; ++x) keep[x] = true;
  }
  if (!any) return "";
  std::string out = "--- expected\n+++ actual\n";
  bool gap = false;
  size_t shown = 0, elided = 0;
  for (size_t k = 0; k < ops.size(); ++k) {
    if (!keep[k]) {
      gap = true;
      continue;
    }
    if (shown >= max_lines) {
      ++elided;
      continue;
    }
    if (gap) out += "  ...\n";
    gap = false;
    out += ops[k].first;
    out += ' ';
    out += ops[k].second + "\n";
    ++shown;
  }
  if (elided)
    out += "  ... " + std::to_string(elided) + " more diff line" + (elided == 1 ? "" : "s") +
           " elided\n";
  else if (gap)
    out += "  ...\n";
  return out;
}

std::string json_diff(const Json& expected, const Json* actual, const MatchOptions& options) {
  auto [ev, av] = views(expected, actual, options);
  std::string e = ev ? ev->dump(2) : "(missing)";
  std::string a = av ? av->dump(2) : "(missing)";
  return line_diff(e, a);
}

}  // namespace runner
