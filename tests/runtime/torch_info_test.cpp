#include <gtest/gtest.h>

#include "torch_info.h"

namespace mpsready {

// The runtime links the LibTorch the build found and reports it; no MPS exists on Linux.
TEST(TorchInfo, ReportsTheLinkedLibTorch) {
  const TorchInfo info = probe_torch();
  EXPECT_FALSE(info.version.empty());
  EXPECT_NE(info.version.find('.'), std::string::npos);
#if !defined(__APPLE__)
  EXPECT_FALSE(info.mps_built);
#endif
}

}  // namespace mpsready
