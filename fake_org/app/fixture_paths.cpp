#include "app/fixture_paths.h"

#include <filesystem>
#include <system_error>

namespace fake_org::app {

namespace {

namespace fs = std::filesystem;

// Longer than any path a filesystem takes (PATH_MAX is 4096 on Linux).
constexpr size_t kFixtureSpecLimit = 4096;

std::string fixture_paths_quote(const std::string& spec) {
  return spec.size() <= 200 ? spec : spec.substr(0, 200) + "...";
}

std::string fixture_paths_dirs(const std::vector<std::string>& dirs) {
  std::string out;
  for (const auto& d : dirs) out += (out.empty() ? "" : ", ") + d;
  return out;
}

// True when `inner` is `dir` itself or below it (both absolute, normal).
bool fixture_paths_within(const fs::path& inner, const fs::path& dir) {
  auto d = dir.begin();
  auto i = inner.begin();
  for (; d != dir.end(); ++d, ++i) {
    if (d->empty()) break;  // "dir/": the final empty name
    if (i == inner.end() || *i != *d) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> fixture_file_under(const std::string& spec,
                                              const std::vector<std::string>& dirs,
                                              std::string& error) {
  const std::string quoted = "'" + fixture_paths_quote(spec) + "'";
  if (dirs.empty()) {
    error = "no fixture " + quoted +
            " among the shipped fixtures; fixture files are served only from a directory "
            "fake-org was started with (--fixtures-dir DIR), or send the fixture inline as a "
            "JSON object";
    return std::nullopt;
  }
  const fs::path named(spec);
  const std::string ext = named.extension().string();
  if (spec.size() > kFixtureSpecLimit || spec.find('\0') != std::string::npos ||
      (ext != ".yaml" && ext != ".yml")) {
    error = "no fixture " + quoted + ": a fixture file is named by a path ending in .yaml or " +
            ".yml under --fixtures-dir (" + fixture_paths_dirs(dirs) + ")";
    return std::nullopt;
  }
  std::string why = "no such file";
  for (const std::string& dir_text : dirs) {
    std::error_code ec;
    const fs::path dir = fs::canonical(dir_text, ec);
    if (ec) continue;
    const fs::path given_dir = fs::absolute(dir_text, ec).lexically_normal();
    const fs::path candidate = (named.is_absolute() ? named : dir / named).lexically_normal();
    // Outside by its name: not even looked at, so an answer tells nothing of
    // what exists elsewhere.
    if (!fixture_paths_within(candidate, dir) && !fixture_paths_within(candidate, given_dir)) {
      why = "outside the fixtures directories";
      continue;
    }
    const fs::path real = fs::canonical(candidate, ec);
    if (ec) {
      if (ec != std::errc::no_such_file_or_directory) why = ec.message();
      continue;
    }
    if (!fixture_paths_within(real, dir)) {
      why = "outside the fixtures directories";
      continue;
    }
    if (!fs::is_regular_file(real, ec) || ec) {
      why = "not a regular file";
      continue;
    }
    return real.string();
  }
  error = "no fixture " + quoted + " among the shipped fixtures or under --fixtures-dir (" +
          fixture_paths_dirs(dirs) + "): " + why;
  return std::nullopt;
}

}  // namespace fake_org::app
