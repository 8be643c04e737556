#include "uri.h"

#include <optional>

namespace contracts::uri {
namespace {

struct Parts {
  std::optional<std::string> scheme;
  std::optional<std::string> authority;
  std::string path;
  std::optional<std::string> query;
  std::optional<std::string> fragment;
};

// RFC 3986 appendix B, without a regex so that long URIs cannot overflow
// std::regex's recursion.
Parts parse(std::string_view s) {
  Parts p;
  size_t i = 0;
  size_t colon = s.find(':');
  size_t stop = s.find_first_of("/?#");
  if (colon != std::string_view::npos && colon > 0 &&
      (stop == std::string_view::npos || colon < stop)) {
    p.scheme = std::string(s.substr(0, colon));
    i = colon + 1;
  }
  if (s.substr(i, 2) == "//") {
    size_t end = s.find_first_of("/?#", i + 2);
    if (end == std::string_view::npos) end = s.size();
    p.authority = std::string(s.substr(i + 2, end - i - 2));
    i = end;
  }
  size_t end = s.find_first_of("?#", i);
  if (end == std::string_view::npos) end = s.size();
  p.path = std::string(s.substr(i, end - i));
  i = end;
  if (i < s.size() && s[i] == '?') {
    end = s.find('#', i);
    if (end == std::string_view::npos) end = s.size();
    p.query = std::string(s.substr(i + 1, end - i - 1));
    i = end;
  }
  if (i < s.size() && s[i] == '#') p.fragment = std::string(s.substr(i + 1));
  return p;
}

std::string remove_dot_segments(std::string in) {
  std::string out;
  while (!in.empty()) {
    if (in.rfind("../", 0) == 0) {
      in.erase(0, 3);
    } else if (in.rfind("./", 0) == 0) {
      in.erase(0, 2);
    } else if (in.rfind("/./", 0) == 0) {
      in.replace(0, 3, "/");
    } else if (in == "/.") {
      in = "/";
    } else if (in.rfind("/../", 0) == 0 || in == "/..") {
      if (in.size() == 3) {
        in = "/";
      } else {
        in.replace(0, 4, "/");
      }
      size_t last = out.rfind('/');
      out.erase(last == std::string::npos ? 0 : last);
    } else if (in == "." || in == "..") {
      in.clear();
    } else {
      size_t next = in.find('/', in[0] == '/' ? 1 : 0);
      if (next == std::string::npos) next = in.size();
      out += in.substr(0, next);
      in.erase(0, next);
    }
  }
  return out;
}

std::string merge(const Parts& base, const std::string& ref_path) {
  if (base.authority && base.path.empty()) return "/" + ref_path;
  size_t last = base.path.rfind('/');
  if (last == std::string::npos) return ref_path;
  return base.path.substr(0, last + 1) + ref_path;
}

std::string compose(const Parts& p) {
  std::string s;
  if (p.scheme) s += *p.scheme + ":";
  if (p.authority) s += "//" + *p.authority;
  s += p.path;
  if (p.query) s += "?" + *p.query;
  if (p.fragment) s += "#" + *p.fragment;
  return s;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
}

}  // namespace

std::string resolve(std::string_view base_text, std::string_view ref_text) {
  Parts base = parse(base_text);
  Parts ref = parse(ref_text);
  Parts t;
  if (ref.scheme) {
    t = ref;
    t.path = remove_dot_segments(ref.path);
  } else {
    if (ref.authority) {
      t.authority = ref.authority;
      t.path = remove_dot_segments(ref.path);
      t.query = ref.query;
    } else {
      if (ref.path.empty()) {
        t.path = base.path;
        t.query = ref.query ? ref.query : base.query;
      } else {
        t.path = remove_dot_segments(ref.path[0] == '/' ? ref.path : merge(base, ref.path));
        t.query = ref.query;
      }
      t.authority = base.authority;
    }
    t.scheme = base.scheme;
  }
  t.fragment = ref.fragment;
  return compose(t);
}

std::pair<std::string, std::string> split_fragment(std::string_view uri) {
  size_t hash = uri.find('#');
  if (hash == std::string_view::npos) return {std::string(uri), ""};
  return {std::string(uri.substr(0, hash)), std::string(uri.substr(hash + 1))};
}

std::string percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      int hi = hex_value(s[i + 1]);
      int lo = hex_value(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

std::vector<std::string> pointer_tokens(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  size_t start = pointer[0] == '/' ? 1 : 0;
  while (true) {
    size_t slash = pointer.find('/', start);
    std::string token(
        pointer.substr(start, slash == std::string_view::npos ? slash : slash - start));
    replace_all(token, "~1", "/");
    replace_all(token, "~0", "~");
    tokens.push_back(std::move(token));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return tokens;
}

std::string pointer_append(std::string_view pointer, std::string_view token) {
  std::string escaped(token);
  replace_all(escaped, "~", "~0");
  replace_all(escaped, "/", "~1");
  return std::string(pointer) + "/" + escaped;
}

std::string pointer_for_valijson(std::string_view pointer) {
  std::string out;
  for (const std::string& token : pointer_tokens(pointer)) {
    std::string escaped = pointer_append("", token);
    replace_all(escaped, "%", "%25");
    out += escaped;
  }
  return out;
}

}  // namespace contracts::uri
