#include "torch_info.h"

#include <torch/cuda.h>
#include <torch/script.h>
#include <torch/version.h>

namespace mpsready {

TorchInfo probe_torch() {
  TorchInfo info;
  info.version = TORCH_VERSION;
  info.cuda_available = torch::cuda::is_available();
#if defined(__APPLE__) && (TORCH_VERSION_MAJOR > 1 || TORCH_VERSION_MINOR >= 12)
  info.mps_built = true;
#endif
  return info;
}

}  // namespace mpsready
