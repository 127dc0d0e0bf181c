// The lines where a module raises NotImplementedError on its branch without CUDA: each shape with
// a line that must be read so and one of the same look that must not.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "python/module_facts.h"

namespace mpsready::testing {
namespace {

std::vector<int> raises(const std::string& text) { return scan_main_block("setup.py", text).cuda_only_raises; }

TEST(CudaOnlyRaises, TheElseOfACudaCheck) {
  EXPECT_EQ(raises("if torch.cuda.is_available():\n    x = 1\nelse:\n    raise NotImplementedError('no')\n"),
            (std::vector<int>{4}));
  // The else of a check that is no CUDA check.
  EXPECT_EQ(raises("if args.fast:\n    x = 1\nelse:\n    raise NotImplementedError('no')\n"), (std::vector<int>{}));
}

TEST(CudaOnlyRaises, AChecksJoinedByAndIsFalseWithoutCuda) {
  EXPECT_EQ(raises("if torch.cuda.is_available() and CUDA_HOME is not None:\n    x = 1\n"
                   "else:\n    raise NotImplementedError('Cuda is not available')\n"),
            (std::vector<int>{4}));
  EXPECT_EQ(raises("if CUDA_HOME is not None and torch.cuda.is_available():\n    x = 1\n"
                   "else:\n    raise NotImplementedError('Cuda is not available')\n"),
            (std::vector<int>{4}));
}

TEST(CudaOnlyRaises, ACheckJoinedByOrMayHoldWithoutCuda) {
  // `or FORCE_CUDA`: the body may run without a GPU, so its else is no branch without CUDA.
  EXPECT_EQ(raises("if torch.cuda.is_available() or os.getenv('FORCE_CUDA') == '1':\n    x = 1\n"
                   "else:\n    raise NotImplementedError('no')\n"),
            (std::vector<int>{}));
  EXPECT_EQ(raises("if ready and torch.cuda.is_available() or FORCE_CUDA:\n    x = 1\n"
                   "else:\n    raise NotImplementedError('no')\n"),
            (std::vector<int>{}));
}

}  // namespace
}  // namespace mpsready::testing
