#pragma once
// The op-status source a scan checks Python calls against: the newest op-status table bundled
// with the rules, the one of --torch-version / target_pytorch, or a --native-functions file. It
// is loaded at most once per scan, and only when an op-coverage rule runs and a file has a call
// worth looking up. Worker threads share it read-only.
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ops/native_functions.h"

namespace mpsready {

struct OpCoverageSettings {
  std::vector<std::string> native_functions;  // --native-functions (PATH or VERSION=PATH)
  std::string torch_version;                  // --torch-version, else the config's target_pytorch
  std::filesystem::path tables_dir;           // the bundled tables; "" = those of the rule's directory
};

class OpCoverageSource {
 public:
  // The instance the op-coverage matcher reads; configured by `scan` before it runs.
  static OpCoverageSource& shared();

  // Forgets any loaded table; the next table() call loads according to `settings`.
  void configure(OpCoverageSettings settings);
  // Loads on the first call; null when no file was found or it could not be read (note() says why).
  // `rules_dir`, the directory of the rule that asks, supplies the bundled tables when the settings
  // name none.
  const NativeFunctions* table(const std::filesystem::path& rules_dir = {});
  // Whether table() was called since configure(): some file needed it.
  bool requested() const;
  // Why there is no table ("" when there is one or none was requested).
  std::string note() const;

 private:
  mutable std::mutex mutex_;
  OpCoverageSettings settings_;
  bool loaded_ = false;
  std::unique_ptr<NativeFunctions> table_;
  std::string note_;
};

}  // namespace mpsready
