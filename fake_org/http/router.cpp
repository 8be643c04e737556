#include "router.h"
#include "util/thread_cache.h"

#include <algorithm>

namespace fake_org::http {

namespace {

using contracts::ParamChars;
using contracts::RouteArea;
using contracts::RouteRow;

// The methods in the order an Allow header lists them. HEAD is served
// wherever GET is (RFC 9110, 9.3.2), OPTIONS on every known path.
constexpr const char* kMethodOrder[] = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"};

// A path's segments, empty ones left out: every area routes "/a//b/" as
// "/a/b", as the platform serves "query/?q=" and "//services/data/..." (a
// client that keeps its instance URL with a trailing slash) as their plain
// forms. One pass over the path, no copy.
void split(std::string_view path, std::vector<std::string_view>& out) {
  out.clear();
  size_t i = 0;
  while (i < path.size()) {
    while (i < path.size() && path[i] == '/') ++i;
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) out.push_back(path.substr(i, j - i));
    i = j;
  }
}

// The path with its leading run of slashes made one: where a mount's prefix
// is compared ("//services/data/v59.0" is under "/services/data/").
std::string_view one_leading_slash(std::string_view path) {
  while (path.size() > 1 && path[0] == '/' && path[1] == '/') path.remove_prefix(1);
  return path;
}

bool is_word(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// HEAD takes the GET row: the same status and headers, and httplib writes
// no body for a HEAD. OPTIONS takes no row (Router::Outcome::kOptions).
bool method_fits(const RouteRow& row, std::string_view method) {
  return row.method == method || (method == "HEAD" && row.method == "GET");
}

std::string allow_header(const std::vector<const std::string*>& methods) {
  std::string out;
  auto has = [&methods](std::string_view m) {
    return std::any_of(methods.begin(), methods.end(),
                       [m](const std::string* have) { return *have == m; });
  };
  for (const char* m : kMethodOrder) {
    const std::string_view name(m);
    const bool found = name == "OPTIONS" || has(name) || (name == "HEAD" && has("GET"));
    if (found) out += (out.empty() ? "" : ", ") + std::string(m);
  }
  return out;
}

bool mounted(const MountOptions& options, const std::string& area) {
  return options.areas.empty() ||
         std::find(options.areas.begin(), options.areas.end(), area) != options.areas.end();
}

}  // namespace

void Handlers::on(const std::string& operation_id, Handler handler) {
  if (!by_id_.emplace(operation_id, std::move(handler)).second) twice_.push_back(operation_id);
}

std::vector<std::string> Handlers::operation_ids() const {
  std::vector<std::string> out;
  for (const auto& entry : by_id_) out.push_back(entry.first);
  return out;
}

Router::Router(const contracts::RouteTable& table, Handlers handlers, MountOptions options) {
  std::string problems;
  for (const std::string& id : handlers.twice_) problems += "\n  two handlers for " + id;
  for (const RouteArea& area : table.areas) {
    if (!mounted(options, area.name)) continue;
    Mount m{&area, area.mount == "$base_path" ? options.base_path : area.mount, false, {}, {}};
    m.bare_ok = area.mount == "$base_path";
    if (m.prefix == "/") m.prefix.clear();
    if (!m.bare_ok && !m.prefix.empty()) m.prefix.pop_back();  // "/__admin/" -> "/__admin"
    mounts_.push_back(std::move(m));
  }
  // Whole-path areas first: a path one of them has is theirs.
  std::stable_partition(mounts_.begin(), mounts_.end(),
                        [](const Mount& m) { return m.prefix.empty() && !m.bare_ok; });
  for (const RouteRow& row : table.rows) {
    auto mount = std::find_if(mounts_.begin(), mounts_.end(),
                              [&row](const Mount& m) { return m.area->name == row.area; });
    if (mount == mounts_.end()) continue;
    auto handler = handlers.by_id_.find(row.operation_id);
    if (handler == handlers.by_id_.end()) {
      if (options.partial) continue;
      problems += "\n  no handler for " + row.operation_id + " (" + row.method + " " + row.path +
                  ", contracts/routes.yaml:" + std::to_string(row.line) + ")";
      continue;
    }
    add_entry(*mount, row, std::move(handler->second));
    handlers.by_id_.erase(handler);
  }
  for (const auto& entry : handlers.by_id_)
    problems += "\n  handler " + entry.first + " has no row in contracts/routes.yaml" +
                (options.areas.empty() ? "" : " (in the mounted areas)");
  if (!problems.empty()) throw MountError("cannot mount the route table:" + problems);
}

void Router::add_entry(Mount& mount, const RouteRow& row, Handler handler) {
  Entry e{&row, {}, std::move(handler)};
  std::vector<std::string_view> parts;
  split(row.path, parts);
  if (parts.empty()) parts.emplace_back();  // the mount itself
  for (std::string_view part : parts) {
    Segment s;
    s.param = contracts::is_param_segment(part);
    s.text = s.param ? std::string(part.substr(1, part.size() - 2)) : std::string(part);
    if (s.param) {
      auto chars = row.params.find(s.text);
      if (chars != row.params.end()) s.chars = chars->second;
    }
    e.segments.push_back(std::move(s));
  }
  if (e.segments.front().param)
    mount.param_first.push_back(std::move(e));
  else
    mount.by_first[e.segments.front().text].push_back(std::move(e));
}

bool Router::match_in(const Mount& mount, std::string_view method, std::string_view path,
                      Match& m) const {
  thread_local std::vector<std::string_view> segs;
  thread_local const bool hooked =
      (util::on_thread_give_back([] { std::vector<std::string_view>().swap(segs); }), true);
  (void)hooked;
  split(path, segs);
  if (segs.empty()) segs.emplace_back();  // the mount itself
  const bool options = method == "OPTIONS";
  std::vector<const std::string*> methods;  // of the rows with this path
  auto try_entry = [&](const Entry& e) {
    if (e.segments.size() != segs.size()) return false;
    for (size_t i = 0; i < segs.size(); ++i) {
      const Segment& s = e.segments[i];
      if (!s.param) {
        if (s.text != segs[i]) return false;
      } else if (segs[i].empty() || (s.chars == ParamChars::kWord && !is_word(segs[i]))) {
        return false;
      }
    }
    if (options || !method_fits(*e.row, method)) {
      methods.push_back(&e.row->method);
      return false;
    }
    m.outcome = Outcome::kHandled;
    m.row = e.row;
    m.handler = &e.handler;
    for (size_t i = 0; i < segs.size(); ++i) {
      if (e.segments[i].param)
        m.params[e.segments[i].text] = httplib::detail::decode_url(std::string(segs[i]), false);
    }
    return true;
  };
  if (!segs.empty()) {
    auto bucket = mount.by_first.find(segs.front());
    if (bucket != mount.by_first.end()) {
      for (const Entry& e : bucket->second)
        if (try_entry(e)) return true;
    }
  }
  for (const Entry& e : mount.param_first)
    if (try_entry(e)) return true;
  if (methods.empty()) return false;
  m.outcome = options ? Outcome::kOptions : Outcome::kMethodNotAllowed;
  m.allowed = allow_header(methods);
  return true;
}

Router::Match Router::match(std::string_view method, std::string_view whole) const {
  Match m;
  const std::string_view path = one_leading_slash(whole);
  for (const Mount& mount : mounts_) {
    std::string_view relative = path;
    const bool whole_path = mount.prefix.empty() && !mount.bare_ok;
    if (!whole_path) {
      if (path.compare(0, mount.prefix.size(), mount.prefix) != 0) continue;
      if (path.size() == mount.prefix.size() ? !mount.bare_ok : path[mount.prefix.size()] != '/')
        continue;
      relative = path.substr(mount.prefix.size());
    }
    m.area = mount.area;
    m.path = relative;
    if (match_in(mount, method, relative, m) || !whole_path) return m;
  }
  return Match{};
}

std::vector<std::string> Router::mounted_paths() const {
  std::vector<std::string> out;
  for (const Mount& mount : mounts_) {
    auto add = [&](const Entry& e) {
      std::string path = mount.prefix + e.row->path;
      if (std::find(out.begin(), out.end(), path) == out.end()) out.push_back(path);
    };
    for (const auto& bucket : mount.by_first)
      for (const Entry& e : bucket.second) add(e);
    for (const Entry& e : mount.param_first) add(e);
  }
  return out;
}

std::vector<const RouteArea*> Router::areas() const {
  std::vector<const RouteArea*> out;
  for (const Mount& mount : mounts_) out.push_back(mount.area);
  return out;
}

}  // namespace fake_org::http
