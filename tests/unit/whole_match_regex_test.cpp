// The range check in front of a rule's whole-token regex must never change an answer: it only
// rejects strings no match can be.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "matchers/whole_match_regex.h"

namespace mpsready {

TEST(WholeMatchRegex, AgreesWithRe2OnEveryPatternAndToken) {
  const std::vector<std::string> patterns = {
      "cuda(Malloc|Free|Memcpy|Stream)[A-Za-z0-9]*(_v[0-9]+)?",
      "cu(Init|LaunchKernel|Module\\w+|Library\\w+|Kernel\\w+)",
      "(?i)cudnn.*",
      ".*_cuda",
      "__shfl_(sync|down_sync|xor_sync)",
      "x*",
      "a|zz",
      "cub/.*\\.cuh",
      "(at|c10)::cuda::.*",
  };
  const std::vector<std::string> tokens = {
      "",        "(",          "int",           "x",           "xx",          "a",
      "zz",      "z",          "cudaMalloc",    "cudaMallocAsync", "cudaMalloc_v2", "cudaFree",
      "cuda",    "cudaz",      "cuInit",        "cuModuleLoad", "cuLibraryLoadData", "cuKernelGetFunction",
      "CUDNN_x", "cudnnCreate", "cuDNN",        "add_cuda",    "_cuda",       "__shfl_sync",
      "__shfl",  "cub/cub.cuh", "cub/a/b.cuh",  "at::cuda::getCurrentCUDAStream", "c10::cuda::x", "std::vector",
      "\xff\xfe", "~",          "zzz"};
  int bounded = 0;
  for (const std::string& p : patterns) {
    const WholeMatchRegex fast(p);
    const RE2 plain(p, RE2::Quiet);
    ASSERT_TRUE(fast.ok()) << p;
    bounded += fast.bounded();
    for (const std::string& t : tokens) EXPECT_EQ(fast.full_match(t), RE2::FullMatch(t, plain)) << p << " on " << t;
  }
  EXPECT_GE(bounded, 5);  // the check is in use, not only correct when absent
}

}  // namespace mpsready
