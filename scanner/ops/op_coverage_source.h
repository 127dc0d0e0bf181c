#pragma once
// The native_functions.yaml a scan checks Python calls against. The file is big (half a megabyte
// of YAML), so it is loaded at most once per scan, and only when an op-coverage rule runs and a
// file has a call worth looking up. Worker threads share it read-only.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ops/native_functions.h"

namespace mpsready {

struct OpCoverageSettings {
  std::vector<std::string> native_functions;  // --native-functions (PATH or VERSION=PATH)
  std::string torch_version;                  // --torch-version, else the config's target_pytorch
};

class OpCoverageSource {
 public:
  // The instance the op-coverage matcher reads; configured by `scan` before it runs.
  static OpCoverageSource& shared();

  // Forgets any loaded table; the next table() call loads according to `settings`.
  void configure(OpCoverageSettings settings);
  // Loads on the first call; null when no file was found or it could not be read (note() says why).
  const NativeFunctions* table();
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
