#pragma once
// Shared test helpers: temporary directories, the bundled rules, and in-process scans.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "engine/scanner.h"
#include "pipeline/pipeline.h"
#include "rules/rule_set.h"

namespace mpsready::testing {

namespace fs = std::filesystem;

inline fs::path source_dir() { return fs::path(MPSREADY_SOURCE_DIR); }
inline fs::path rules_dir() { return source_dir() / "rules"; }

class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = fs::temp_directory_path() / ("mpsready-test-" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    // Make unreadable test directories removable again.
    for (auto it = fs::recursive_directory_iterator(path_, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_directory(ec) && !it->is_symlink(ec)) fs::permissions(it->path(), fs::perms::owner_all, ec);
    }
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  fs::path write(const std::string& relative, const std::string& content) const {
    const fs::path file = path_ / relative;
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << content;
    return file;
  }

 private:
  fs::path path_;
};

inline const RuleSet& bundled_rules() {
  static const RuleSet rules = RuleSet::load(rules_dir());
  return rules;
}

// Scans `root` with the bundled rules (or only `select`), in process.
inline ScanResult scan(const fs::path& root, const std::vector<std::string>& select = {}, unsigned jobs = 1) {
  RuleSet rules = bundled_rules();
  rules.restrict(select, {});
  const Pipeline pipeline(rules);
  ScanOptions options;
  options.jobs = jobs;
  return pipeline.scan(root, options);
}

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace mpsready::testing
