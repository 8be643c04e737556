// The main of a fuzz target built without libFuzzer (GCC, or a build without
// FAKE_ORG_FUZZ): runs the target once on every file named, or in a folder
// named, so CTest replays the kept regression inputs and seeds in every
// build. Options libFuzzer would take (-runs=0) are ignored.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

void run_file(const std::filesystem::path& file, size_t& runs) {
  std::ifstream in(file, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  ++runs;
}

}  // namespace

int main(int argc, char** argv) {
  size_t runs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!arg.empty() && arg[0] == '-') continue;
    const std::filesystem::path path(arg);
    if (std::filesystem::is_directory(path)) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::recursive_directory_iterator(path))
        if (entry.is_regular_file()) files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) run_file(f, runs);
    } else if (std::filesystem::is_regular_file(path)) {
      run_file(path, runs);
    } else {
      std::fprintf(stderr, "no such file or folder: %s\n", arg.c_str());
      return 2;
    }
  }
  std::printf("replayed %zu inputs\n", runs);
  return 0;
}
