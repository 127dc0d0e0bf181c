// `mpsready fix` on every bundled sample repository: the verdict before and after, what is left
// and why, and the fixed model code still running on the CPU under the system's PyTorch.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "fix/fix_engine.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

void copy_tree(const fs::path& from, const fs::path& to) {
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

FixOutcome fix_copy(const fs::path& root) {
  const Pipeline pipeline(bundled_rules());
  FixOptions options;
  options.scan.jobs = 1;
  return run_fix(pipeline, bundled_rules(), root, options);
}

struct SampleFix {
  const char* name;
  Verdict before;
  Verdict after;
};

}  // namespace

class FixSample : public ::testing::TestWithParam<SampleFix> {};

TEST_P(FixSample, VerdictBeforeAndAfter) {
  const SampleFix& sample = GetParam();
  TempDir dir;
  copy_tree(source_dir() / "sample_repos" / sample.name, dir.path());
  const FixOutcome outcome = fix_copy(dir.path());
  EXPECT_EQ(outcome.before, sample.before);
  EXPECT_EQ(outcome.after, sample.after);
  // Whatever still keeps the repository from mps-ready is named, each with its reason.
  if (outcome.after != Verdict::mps_ready) EXPECT_FALSE(outcome.remaining.empty());
  std::string error;
  ASSERT_TRUE(write_fixes(dir.path(), outcome, error)) << error;
  // Written, the tree is what was checked: a second run has nothing left to fix.
  const FixOutcome again = fix_copy(dir.path());
  EXPECT_EQ(again.sites_fixed(), 0u);
  EXPECT_EQ(again.before, outcome.after);
}

INSTANTIATE_TEST_SUITE_P(Bundled, FixSample,
                         ::testing::Values(
                             // What keeps these where they are is not mechanical: CUDA kernels
                             // and streams, a CUDA-only extension, an NVIDIA-only dependency,
                             // float64 math, `import torch as T` (named in the summary).
                             SampleFix{"fused-attention-stay-on-linux", Verdict::stay_on_linux, Verdict::stay_on_linux},
                             SampleFix{"mnist-mps-ready", Verdict::mps_ready, Verdict::mps_ready},
                             SampleFix{"rmsnorm-extension-partial", Verdict::partial, Verdict::partial},
                             SampleFix{"text-classifier-cluster-partial", Verdict::partial, Verdict::partial},
                             SampleFix{"unet-segmentation-partial", Verdict::partial, Verdict::partial}),
                         [](const ::testing::TestParamInfo<SampleFix>& info) {
                           std::string name = info.param.name;
                           for (auto& c : name) if (c == '-') c = '_';
                           return name;
                         });

// The fixed UNet sample still imports and runs its model for one forward step on a Linux box
// without CUDA (Debian's python3-torch): the rewritten device choice falls through to the CPU.
TEST(FixSamples, FixedModelRunsOnTheCpu) {
  // Debian's python3-torch belongs to the system interpreter, which a virtual environment or
  // pyenv earlier on PATH would hide.
  const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  if (std::system((python + " -c 'import torch' >/dev/null 2>&1").c_str()) != 0)
    GTEST_SKIP() << python << " cannot import torch";
  TempDir dir;
  copy_tree(source_dir() / "sample_repos" / "unet-segmentation-partial", dir.path());
  const FixOutcome outcome = fix_copy(dir.path());
  std::string error;
  ASSERT_TRUE(write_fixes(dir.path(), outcome, error)) << error;
  const std::string model = read_text(dir.path() / "model.py");
  ASSERT_EQ(model.find("torch.device(\"cuda:0\")"), std::string::npos) << "model.py was not fixed";
  const std::string run = "cd '" + dir.path().string() +
                          "' && CUDA_VISIBLE_DEVICES= " + python + " -B model.py > out.txt 2>&1 && " + python +
                          " -B -m py_compile train.py evaluate.py data.py";
  EXPECT_EQ(std::system(run.c_str()), 0) << read_text(dir.path() / "out.txt");
  // One forward pass of a batch of 2 at 256x256 into 2 classes.
  EXPECT_NE(read_text(dir.path() / "out.txt").find("torch.Size([2, 2, 256, 256])"), std::string::npos)
      << read_text(dir.path() / "out.txt");
}

}  // namespace mpsready::testing

namespace mpsready::testing {

// The UNet sample: the core's mechanical sites on a Mac's path are fixed (evaluate.py's `T.`
// included; one device for the script evaluate.py, and validate() in train.py takes its model's
// device, where main() put it); what stays is named: float64 math, and autocast
// beside a GradScaler (fp16 on MPS would run unscaled), at the lines the user sees before the fix.
// The notebook (outside the core) and the harmless seed are listed, not fixed.
TEST(FixSamples, UnetLeavesOnlyWhatNeedsAHuman) {
  TempDir dir;
  copy_tree(source_dir() / "sample_repos" / "unet-segmentation-partial", dir.path());
  const FixOutcome outcome = fix_copy(dir.path());
  EXPECT_EQ(outcome.sites_fixed(), 13u);
  EXPECT_EQ(outcome.bindings_added(), 3u);
  for (const FileFix& file : outcome.files) {
    if (file.path == "train.py")
      EXPECT_NE(file.after.find("    device = next(model.parameters()).device\n"), std::string::npos) << file.after;
    if (file.path == "evaluate.py")
      EXPECT_EQ(file.after.find("cuda.is_available()"), file.after.rfind("cuda.is_available()")) << file.after;
  }
  std::set<std::string> left;
  std::set<int> amp_lines;
  for (const Finding& f : outcome.remaining) {
    left.insert(f.rule);
    if (f.rule == "py-cuda-amp") amp_lines.insert(f.location.line);
  }
  EXPECT_EQ(left, (std::set<std::string>{"py-cuda-amp", "py-float64"}));
  EXPECT_EQ(amp_lines, (std::set<int>{45, 94}));
  std::set<std::string> listed;
  for (const LeftSite& s : outcome.left) listed.insert(s.path + ":" + std::to_string(s.location.line) + " " + s.reason.substr(0, 20));
  EXPECT_TRUE(listed.count("train.py:26 harmless on a Mac (i")) << "the CUDA seed after torch.manual_seed";
  EXPECT_TRUE(listed.count("notebooks/predictions.ipynb:1 outside the core (no")) << "the notebook";
}

}  // namespace mpsready::testing
