// The programs the root README tells users to run become entry points (docs/readme_commands.h).
#include <gtest/gtest.h>

#include "docs/readme_commands.h"

namespace mpsready::testing {
namespace {

// `line script` or `line -m module`, in order.
std::vector<std::string> commands(const std::string& path, const std::string& text) {
  std::vector<std::string> out;
  for (const EntryPointFact& e : readme_commands(path, text))
    out.push_back(std::to_string(e.line) + " " + (e.script.empty() ? "-m " + e.module : e.script));
  return out;
}

}  // namespace

TEST(ReadmeCommands, LaunchersInCodeBlocksAndInlineCode) {
  const std::string readme =
      "# Kit\n"                                                                    // 1
      "Train with `python train.py --epochs 3` or read on.\n"                      // 2
      "```bash\n"                                                                  // 3
      "$ CUDA_VISIBLE_DEVICES=0 python3 -u ./tools/train.py configs/base.py\n"     // 4
      "torchrun --nproc_per_node 8 --master_port=29500 tools/dist_train.py --cfg a\n"  // 5
      "accelerate launch --num_processes 2 finetune.py && python -m kit.cli serve\n"   // 6
      "python -m torch.distributed.launch --nproc_per_node=2 launch_me.py\n"        // 7
      "bash scripts/prepare.sh && python setup.py develop && python -c 'import kit'\n"  // 8
      "pip install -e . ; python3.10 /opt/elsewhere.py ; python ../outside.py\n"     // 9
      "```\n"                                                                      // 10
      "Then python prose.py is only prose.\n"                                      // 11
      "    deepspeed --num_gpus 4 ds_train.py\n";                                  // 12
  EXPECT_EQ(commands("README.md", readme),
            (std::vector<std::string>{"2 train.py", "4 tools/train.py", "5 tools/dist_train.py", "6 finetune.py",
                                      "6 -m kit.cli", "7 launch_me.py", "12 ds_train.py"}));
}

// `cd DIR && python x.py`: the script is DIR/x.py; a `cd` that leaves the repository or cannot
// be read makes the scripts after it on that line no file of ours.
TEST(ReadmeCommands, ScriptsAfterACdAreInItsFolder) {
  const std::string readme =
      "```sh\n"                                                                    // 1
      "cd examples/cifar && python train.py --epochs 3\n"                        // 2
      "cd ./tools/ ; torchrun --nproc_per_node 2 dist.py && cd sub && python x.py\n"  // 3
      "cd .. && python outside.py\n"                                              // 4
      "cd $WORK && python elsewhere.py\n"                                         // 5
      "python top.py\n"                                                           // 6
      "```\n";                                                                    // 7
  EXPECT_EQ(commands("README.md", readme),
            (std::vector<std::string>{"2 examples/cifar/train.py", "3 tools/dist.py", "3 tools/sub/x.py", "6 top.py"}));
}

TEST(ReadmeCommands, RestructuredTextLiteralBlocks) {
  const std::string readme =
      "Usage::\n"                        // 1
      "\n"                               // 2
      "    python demo/run.py\n"         // 3
      "\n"                               // 4
      "    python -m kit\n"              // 5
      "Done: ``python eval.py``.\n"      // 6
      ".. code-block:: shell\n"          // 7
      "\n"                               // 8
      "   python tools/export.py\n";     // 9
  EXPECT_EQ(commands("README.rst", readme),
            (std::vector<std::string>{"3 demo/run.py", "5 -m kit", "6 eval.py", "9 tools/export.py"}));
}

TEST(ReadmeCommands, OnlyTheRootReadme) {
  EXPECT_TRUE(is_root_readme("README.md"));
  EXPECT_TRUE(is_root_readme("readme.rst"));
  EXPECT_TRUE(is_root_readme("README"));
  EXPECT_FALSE(is_root_readme("docs/README.md"));
  EXPECT_FALSE(is_root_readme("examples/README.md"));
  EXPECT_FALSE(is_root_readme("INSTALL.md"));
  EXPECT_TRUE(commands("examples/README.md", "`python train.py`\n").empty());
}

}  // namespace mpsready::testing
