#pragma once
// What the linked LibTorch offers on this machine.
#include <string>

namespace mpsready {

struct TorchInfo {
  std::string version;  // e.g. "1.13.1"
  bool cuda_available = false;
  bool mps_built = false;  // only newer LibTorch builds for macOS have MPS
};

TorchInfo probe_torch();

}  // namespace mpsready
