#pragma once
// The machine and the LibTorch a smoke run ran on: enough for another researcher to repeat it, and
// to see at a glance why MPS was or was not used (not a Mac, an x86 process under Rosetta, a
// LibTorch built without MPS).
#include <cstdint>
#include <optional>
#include <string>

#include "env/torch_build.h"

namespace mpsready {

struct Environment {
  std::string os;              // "Linux", "Darwin"
  std::string os_version;      // kernel release; on macOS the product version (e.g. "14.5")
  std::optional<std::string> distribution;  // Linux: PRETTY_NAME of /etc/os-release; nullopt elsewhere
  std::string arch;            // machine architecture of this process: "x86_64", "arm64", "aarch64"
  std::optional<bool> rosetta;  // macOS only: true when this process runs translated under Rosetta
  std::string cpu_model;
  unsigned cores = 0;
  uint64_t memory_bytes = 0;
  std::string libtorch_version;
  TorchBuild libtorch_build;
  bool mps_built = false;      // LibTorch has MPS kernels registered
  bool mps_available = false;  // and an MPS device is usable now
  bool cuda_available = false;
  int cuda_device_count = 0;
  std::string power_source = "unknown";    // macOS: not readable without IOKit; see docs/smoke-record.md
  std::string low_power_mode = "unknown";  // macOS: likewise
};

Environment probe_environment();

// PRETTY_NAME of an os-release file (unquoted), or nullopt when the file or the key is missing.
std::optional<std::string> os_release_pretty_name(const std::string& path);

// Why MPS cannot be used here, in one sentence; "" when it can.
std::string mps_unavailable_reason(const Environment& env);

}  // namespace mpsready
