#pragma once
// Files for tests: a fresh folder under the system temp directory for one
// test, removed with it, and reading a whole file back.
// Named by prefix, process id and a counter, so parallel test processes and
// several folders in one test never share one.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace runner::testing {

class TempDir {
 public:
  explicit TempDir(const std::string& prefix)
      : path(std::filesystem::temp_directory_path() /
             (prefix + "_" + std::to_string(::getpid()) + "_" + std::to_string(++counter()))) {
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes `text` to `name` inside the folder; returns the file's path.
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }

  const std::filesystem::path path;

 private:
  static std::atomic<int>& counter() {
    static std::atomic<int> n{0};
    return n;
  }
};

// The whole file, or "" when it cannot be read (the test's checks then say so).
inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace runner::testing
