// `mpsready fix` as a user runs it: the diff applies with patch and gives what --write writes,
// the JSON lists each edit, suppressions hold, and the output is the same run after run.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

const char* kTrain =
    "import torch\n"
    "\n"
    "DEVICE = \"cuda\" if torch.cuda.is_available() else \"cpu\"\n"
    "model = torch.nn.Linear(4, 2).cuda()\n"
    "x = torch.zeros(3, 4, device=\"cuda\")\n"
    "y = torch.zeros(3, 4).cuda()  # mpsready: ignore[py-tensor-dot-cuda]\n";

}  // namespace

TEST(FixCli, ComponentLimitsTheFixAndMigratesANamedExampleAsItsOwnCore) {
  TempDir dir;
  dir.write("pkg/__init__.py", "");
  dir.write("pkg/train.py", "import torch\n\n\ndef run():\n    return torch.nn.Linear(4, 2).cuda()\n");
  dir.write("examples/demo/run.py", "import torch\n\nmodel = torch.nn.Linear(4, 2).cuda()\n");
  const std::string root = quote(dir.path().string());
  // An example is outside the core: the default fix leaves it, naming it fixes it, and nothing else.
  const CliRun plain = mpsready("fix " + root, /*with_stderr=*/false);
  ASSERT_EQ(plain.code, 0);
  EXPECT_EQ(plain.out.find("examples/demo/run.py"), std::string::npos) << plain.out;
  EXPECT_NE(plain.out.find("pkg/train.py"), std::string::npos) << plain.out;
  const CliRun demo = mpsready("fix --component examples " + root);
  ASSERT_EQ(demo.code, 0) << demo.out;
  EXPECT_NE(demo.out.find("+++ b/examples/demo/run.py"), std::string::npos) << demo.out;
  EXPECT_EQ(demo.out.find("+++ b/pkg/train.py"), std::string::npos) << demo.out;
  EXPECT_NE(demo.out.find("pkg/train.py:5 py-tensor-dot-cuda: in component `pkg`; --component pkg fixes it"),
            std::string::npos)
      << demo.out;
  // A name that is no component is an error, with the names there are.
  const CliRun wrong = mpsready("fix --component example " + root);
  EXPECT_EQ(wrong.code, 2);
  EXPECT_NE(wrong.out.find("no component named `example` (components: "), std::string::npos) << wrong.out;
}

TEST(FixCli, DiffAppliesToWhatWriteWrites) {
  TempDir by_patch, by_write;
  by_patch.write("train.py", kTrain);
  by_write.write("train.py", kTrain);
  const CliRun diff = mpsready("fix " + quote(by_patch.path().string()), /*with_stderr=*/false);
  ASSERT_EQ(diff.code, 0) << diff.out;
  EXPECT_EQ(diff.out.rfind("--- a/train.py\n+++ b/train.py\n@@ ", 0), 0u) << diff.out;
  // Deterministic: the same diff again.
  EXPECT_EQ(mpsready("fix " + quote(by_patch.path().string()), false).out, diff.out);
  by_patch.write("fix.patch", diff.out);
  ASSERT_EQ(run_shell("cd " + quote(by_patch.path().string()) + " && patch -s -p1 < fix.patch").code, 0);

  const CliRun write = mpsready("fix --write " + quote(by_write.path().string()));
  ASSERT_EQ(write.code, 0) << write.out;
  EXPECT_NE(write.out.find("mpsready fix: partial -> mps-ready: 3 sites fixed in 1 file (1 binding of the device "
                           "added, one per scope), 0 need a human"),
            std::string::npos) << write.out;
  const std::string fixed = read_text(by_write.path() / "train.py");
  EXPECT_EQ(read_text(by_patch.path() / "train.py"), fixed);
  // The suppressed line is untouched; the others choose CUDA first, the device once for the
  // script (after its imports), each line within 100 characters.
  EXPECT_NE(fixed.find("y = torch.zeros(3, 4).cuda()  # mpsready: ignore[py-tensor-dot-cuda]"), std::string::npos);
  EXPECT_EQ(fixed.rfind("import torch\n\nif torch.cuda.is_available():\n    device = torch.device(\"cuda\")\n", 0), 0u) << fixed;
  EXPECT_NE(fixed.find("DEVICE = (\"cuda\" if torch.cuda.is_available()\n"
                       "          else \"mps\" if torch.backends.mps.is_available()\n"
                       "          else \"cpu\")\n"),
            std::string::npos) << fixed;
  EXPECT_NE(fixed.find("model = torch.nn.Linear(4, 2).to(device)\nx = torch.zeros(3, 4, device=device)\n"),
            std::string::npos) << fixed;
  // Nothing left to fix.
  EXPECT_EQ(mpsready("fix " + quote(by_write.path().string()), false).out, "");
}

// -q as on `scan`: --write says nothing, the diff alone still goes to stdout; --select takes a
// comma list as `scan` does.
TEST(FixCli, QuietWritesSilentlyAndSelectTakesACommaList) {
  TempDir dir;
  dir.write("train.py", kTrain);
  const std::string root = quote(dir.path().string());
  const CliRun diff = mpsready("fix -q --select py-tensor-dot-cuda,py-cuda-device-string " + root);
  ASSERT_EQ(diff.code, 0) << diff.out;
  EXPECT_EQ(diff.out.rfind("--- a/train.py\n", 0), 0u) << "the diff and nothing else: " << diff.out;
  EXPECT_EQ(diff.out.find("mpsready fix:"), std::string::npos) << diff.out;
  EXPECT_NE(diff.out.find("+model = torch.nn.Linear(4, 2)"), std::string::npos) << diff.out;
  EXPECT_EQ(diff.out.find("+DEVICE"), std::string::npos) << "py-cuda-else-cpu-idiom was not selected: " << diff.out;
  const CliRun write = mpsready("fix --write -q " + root);
  EXPECT_EQ(write.code, 0);
  EXPECT_EQ(write.out, "") << write.out;
  EXPECT_NE(read_text(dir.path() / "train.py"), kTrain);
}

TEST(FixCli, JsonListsEachEditWithItsRuleAndRange) {
  TempDir dir;
  dir.write("train.py", kTrain);
  const CliRun run = mpsready("fix --format json --select py-tensor-dot-cuda " + quote(dir.path().string()), false);
  ASSERT_EQ(run.code, 0) << run.out;
  const auto doc = nlohmann::json::parse(run.out);
  // The device bound once after the imports, then the site that uses it.
  ASSERT_EQ(doc["edits"].size(), 2u);
  EXPECT_EQ(doc["edits"][0]["binding"], true);
  EXPECT_EQ(doc["edits"][0]["original"], "");
  EXPECT_EQ(doc["bindings_added"], 1);
  EXPECT_EQ(doc["sites_fixed"], 1);
  EXPECT_EQ(doc["edits"][1]["binding"], false);
  EXPECT_EQ(doc["edits"][1]["rule"], "py-tensor-dot-cuda");
  EXPECT_EQ(doc["edits"][1]["path"], "train.py");
  EXPECT_EQ(doc["edits"][1]["start"]["line"], 4);
  EXPECT_EQ(doc["edits"][1]["original"], "torch.nn.Linear(4, 2).cuda()");
  EXPECT_EQ(doc["edits"][1]["replacement"], "torch.nn.Linear(4, 2).to(device)");
  EXPECT_EQ(doc["verdict_before"], "partial");
  EXPECT_EQ(doc["needs_pytorch"], "1.12");
  EXPECT_EQ(doc["written"], false);
  EXPECT_EQ(read_text(dir.path() / "train.py"), kTrain);  // no --write: nothing changes
}

TEST(FixCli, ReportsCarryTheFixSummary) {
  TempDir dir;
  dir.write("train.py", kTrain);
  dir.write("eval.py", "from torch import nn\nm = nn.Linear(2, 2).cuda()\n");
  const fs::path md = dir.path() / "comment.md", html = dir.path() / "plan.html";
  const CliRun run = mpsready("fix --report markdown=" + quote(md.string()) + " --report html=" + quote(html.string()) +
                              " " + quote(dir.path().string()), false);
  ASSERT_EQ(run.code, 0) << run.out;
  const std::string comment = read_text(md), plan = read_text(html);
  EXPECT_NE(comment.find("**mpsready fix: partial \u2192 partial**: 3 sites fixed in 1 file, 1 needs a human."),
            std::string::npos) << comment;
  EXPECT_NE(comment.find("### Left for a human after `mpsready fix`\n\n- eval\\.py:2 `py-tensor-dot-cuda`: the fix uses"),
            std::string::npos) << comment;
  EXPECT_NE(plan.find("<code>mpsready fix</code>: partial \u2192 partial: 3 sites fixed in 1 file, 1 needs a human."),
            std::string::npos) << plan;
  EXPECT_NE(plan.find("<li>eval.py:2 <code class=\"rule\">py-tensor-dot-cuda</code>: the fix uses"), std::string::npos) << plan;
  // A report is not a write: the tree is unchanged. A bad --report is refused.
  EXPECT_EQ(read_text(dir.path() / "train.py"), kTrain);
  EXPECT_NE(mpsready("fix --report sarif=x " + quote(dir.path().string())).code, 0);
}

// --target-pytorch 2.6: torch.accelerator for the device and for the statement alike; the CUDA
// seed, harmless on a Mac, is left as it is and said so.
TEST(FixCli, TargetPyTorchChoosesTheAcceleratorForms) {
  TempDir dir;
  dir.write("train.py", "import torch\n\ntorch.cuda.manual_seed(0)\nmodel = torch.nn.Linear(4, 2).cuda()\ntorch.cuda.synchronize()\n");
  const CliRun run = mpsready("fix --write --target-pytorch 2.6 " + quote(dir.path().string()));
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_EQ(read_text(dir.path() / "train.py"),
            "import torch\n\n"
            "if torch.accelerator.is_available():\n"
            "    device = torch.accelerator.current_accelerator()\n"
            "else:\n"
            "    device = torch.device(\"cpu\")\n\n"
            "torch.cuda.manual_seed(0)\n"
            "model = torch.nn.Linear(4, 2).to(device)\n"
            "if torch.accelerator.is_available():\n"
            "    torch.accelerator.synchronize()\n");
  EXPECT_NE(run.out.find("the fixed code needs PyTorch 2.6 or newer (set target-pytorch to hold back newer fixes): "
                         "2.6 for 2 sites (py-tensor-dot-cuda, py-torch-cuda-api)"),
            std::string::npos) << run.out;
  EXPECT_NE(run.out.find("train.py:3 py-torch-cuda-api: harmless on a Mac (info); --all fixes it"), std::string::npos)
      << run.out;
}

}  // namespace mpsready::testing
