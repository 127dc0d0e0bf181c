#include "env/torch_build.h"

#include <dlfcn.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <ATen/Version.h>

namespace mpsready {

namespace {

bool is_commit(const std::string& s) {
  return s.size() >= 7 && s.size() <= 64 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::string first_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

// The directory of the shared library that defines at::show_config: LibTorch's own lib/.
std::string libtorch_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&at::show_config), &info) == 0 || info.dli_fname == nullptr) return "";
  return std::filesystem::path(info.dli_fname).parent_path().string();
}

}  // namespace

std::optional<std::string> commit_near(const std::string& lib_dir, std::string& source) {
  if (lib_dir.empty()) return std::nullopt;
  const std::filesystem::path root = std::filesystem::path(lib_dir).parent_path();
  if (const std::string hash = first_line(root / "build-hash"); is_commit(hash)) {
    source = "build-hash";
    return hash;
  }
  std::ifstream in(root / "version.py");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("git_version", 0) != 0) continue;
    const auto open = line.find_first_of("'\"");
    const auto close = open == std::string::npos ? open : line.find(line[open], open + 1);
    if (close == std::string::npos) continue;
    const std::string hash = line.substr(open + 1, close - open - 1);
    if (!is_commit(hash)) continue;
    source = "version.py";
    return hash;
  }
  return std::nullopt;
}

TorchBuild probe_torch_build() {
  TorchBuild b;
  b.config = at::show_config();
  b.commit = commit_near(libtorch_dir(), b.commit_source);
  return b;
}

}  // namespace mpsready
