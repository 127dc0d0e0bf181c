// What makes a fix one a maintainer merges: one device per scope, statements that stay
// statements, no churn on harmless or CUDA-only code, the project's line length, the file's own
// name for torch, only the sites that decide unless --all, and a re-scan that reports nothing on
// a line the fix wrote.
#include <gtest/gtest.h>

#include "fix/fix_engine.h"
#include "fix/line_wrap.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

FixOutcome fix_tree(const fs::path& root, bool all = true, const std::string& target = "") {
  const Pipeline pipeline(bundled_rules());
  FixOptions options;
  options.scan.jobs = 1;
  options.edits.all = all;
  options.edits.target_pytorch = target;
  return run_fix(pipeline, bundled_rules(), root, options);
}

std::string fixed_text(const FixOutcome& outcome, const std::string& path) {
  for (const FileFix& f : outcome.files)
    if (f.path == path) return f.after;
  return "";
}

std::string reason_at(const FixOutcome& outcome, int line) {
  for (const LeftSite& s : outcome.left)
    if (s.location.line == line) return s.reason;
  return "";
}

const char* kBinding =
    "    if torch.cuda.is_available():\n"
    "        device = torch.device(\"cuda\")\n"
    "    elif torch.backends.mps.is_available():\n"
    "        device = torch.device(\"mps\")\n"
    "    else:\n"
    "        device = torch.device(\"cpu\")\n";

}  // namespace

TEST(FixMerge, AFunctionWithNoDeviceGetsOneBindingAfterItsDocstring) {
  TempDir dir;
  dir.write("m.py",
            "import torch\n\n\n"
            "def evaluate(model, x):\n"
            "    \"\"\"Runs the model.\"\"\"\n"
            "    model = model.cuda()\n"
            "    return model(x.cuda(non_blocking=True)), torch.zeros(1, device=\"cuda\")\n");
  const FixOutcome outcome = fix_tree(dir.path());
  EXPECT_EQ(outcome.sites_fixed(), 3u);
  EXPECT_EQ(outcome.bindings_added(), 1u);
  EXPECT_EQ(fixed_text(outcome, "m.py"),
            std::string("import torch\n\n\n"
                        "def evaluate(model, x):\n"
                        "    \"\"\"Runs the model.\"\"\"\n") +
                kBinding +
                "    model = model.to(device)\n"
                "    return model(x.to(device, non_blocking=True)), torch.zeros(1, device=device)\n");
}

TEST(FixMerge, ADeviceTheFunctionAlreadyChoseIsReused) {
  TempDir dir;
  // `device = torch.device(args.device)`: the user's choice stays the one source of truth.
  dir.write("m.py",
            "import torch\n\n\n"
            "def main(args, model, images):\n"
            "    device = torch.device(args.device)\n"
            "    model = model.cuda()\n"
            "    return model(images.to(device))\n");
  const FixOutcome outcome = fix_tree(dir.path());
  EXPECT_EQ(outcome.bindings_added(), 0u);
  EXPECT_NE(fixed_text(outcome, "m.py").find("    model = model.to(device)\n"), std::string::npos);
  // A local `device` of unknown value is no device to reuse, and no second one is bound beside it.
  dir.write("m.py",
            "import torch\n\n\n"
            "def main(args, model):\n"
            "    device = args.device\n"
            "    return model.cuda(), device\n");
  const FixOutcome unknown = fix_tree(dir.path());
  EXPECT_EQ(unknown.sites_fixed(), 0u);
  EXPECT_NE(reason_at(unknown, 6).find("no `device` in scope"), std::string::npos) << reason_at(unknown, 6);
}

TEST(FixMerge, AScriptGetsItsBindingAfterItsImportsOrAtTheTopOfItsMainBlock) {
  TempDir dir;
  dir.write("main_block.py",
            "import torch\n\n"
            "def helper():\n"
            "    return 1\n\n"
            "if __name__ == \"__main__\":\n"
            "    # a shape check\n"
            "    x = torch.randn(2).to(\"cuda\")\n");
  const FixOutcome outcome = fix_tree(dir.path());
  EXPECT_EQ(fixed_text(outcome, "main_block.py"),
            std::string("import torch\n\n"
                        "def helper():\n"
                        "    return 1\n\n"
                        "if __name__ == \"__main__\":\n"
                        "    # a shape check\n") +
                kBinding + "    x = torch.randn(2).to(device)\n");
  // Functions with a `device` of their own (a parameter, a local) do not stop it ...
  dir.write("main_block.py",
            "import torch\n\ndef f(x, device):\n    return x.to(device)\n\ndef g(x):\n    device = x.device\n    return device\n\n"
            "if __name__ == \"__main__\":\n    m = torch.nn.Linear(2, 2).cuda()\n");
  EXPECT_EQ(fix_tree(dir.path()).bindings_added(), 1u);
  // ... a function that reads a global `device` does: the binding would change what it reads.
  dir.write("main_block.py", "import torch\n\ndef f(x):\n    return x.to(device)\n\nm = torch.nn.Linear(2, 2).cuda()\n");
  EXPECT_EQ(fix_tree(dir.path()).sites_fixed(), 0u);
}

TEST(FixMerge, StatementsStayStatementsWithTheirMpsCounterpart) {
  TempDir dir;
  dir.write("bench.py",
            "import time\n\nimport torch\n\n\n"
            "def timed(model, x, steps):\n"
            "    for _ in range(steps):\n"
            "        torch.cuda.synchronize()  # wait for the GPU\n"
            "        start = time.time()\n"
            "        model(x)\n"
            "        torch.cuda.synchronize()\n"
            "    return time.time() - start\n");
  const FixOutcome outcome = fix_tree(dir.path());
  const std::string fixed = fixed_text(outcome, "bench.py");
  EXPECT_NE(fixed.find("        if torch.cuda.is_available():\n"
                       "            torch.cuda.synchronize()\n"
                       "        elif torch.backends.mps.is_available():\n"
                       "            torch.mps.synchronize()  # wait for the GPU\n"),
            std::string::npos)
      << fixed;
  EXPECT_EQ(fixed.find(" else None"), std::string::npos) << "never a conditional expression statement";
  const FixOutcome accelerator = fix_tree(dir.path(), true, "2.6");
  EXPECT_NE(fixed_text(accelerator, "bench.py").find("        if torch.accelerator.is_available():\n"
                                                      "            torch.accelerator.synchronize()\n"),
            std::string::npos);
  // Not a statement (a value): no rewrite; the site is left and said so.
  dir.write("bench.py", "import torch\n\n\ndef f():\n    done = torch.cuda.synchronize()\n    return done\n");
  const FixOutcome value = fix_tree(dir.path());
  EXPECT_EQ(value.sites_fixed(), 0u);
  EXPECT_EQ(reason_at(value, 5), "no mechanical rewrite for this form");
}

TEST(FixMerge, NoChurnOnHarmlessSitesOrAfterACudaRequirement) {
  TempDir dir;
  dir.write("train.py",
            "import torch\n\n\n"
            "def seed_all(seed):\n"
            "    torch.manual_seed(seed)\n"
            "    torch.cuda.manual_seed_all(seed)\n\n\n"
            "def main(model):\n"
            "    assert torch.cuda.is_available(), \"this trainer needs a GPU\"\n"
            "    return model.cuda()\n\n\n"
            "if __name__ == \"__main__\":\n"
            "    seed_all(0)\n"
            "    main(None)\n");
  const FixOutcome outcome = fix_tree(dir.path(), /*all=*/false);
  EXPECT_EQ(outcome.sites_fixed(), 0u);
  EXPECT_NE(reason_at(outcome, 6).find("harmless on a Mac"), std::string::npos) << reason_at(outcome, 6);
  EXPECT_EQ(reason_at(outcome, 11), "the `assert` at line 10 already requires CUDA: a Mac stops there");
}

TEST(FixMerge, OnlySitesThatDecideAreFixedUnlessAll) {
  TempDir dir;
  dir.write("pkg/__init__.py", "");
  dir.write("pkg/model.py", "import torch\n\n\ndef build():\n    return torch.nn.Linear(2, 2).cuda()\n");
  dir.write("tests/test_model.py", "import torch\n\n\ndef test_build():\n    assert torch.zeros(1).cuda() is not None\n");
  const FixOutcome plain = fix_tree(dir.path(), /*all=*/false);
  EXPECT_NE(fixed_text(plain, "pkg/model.py"), "");
  EXPECT_EQ(fixed_text(plain, "tests/test_model.py"), "");
  bool listed = false;
  for (const LeftSite& s : plain.left)
    listed |= s.path == "tests/test_model.py" && s.reason.find("outside the core") != std::string::npos &&
              s.reason.find("--all") != std::string::npos;
  EXPECT_TRUE(listed) << "a site not fixed is listed with its reason";
  EXPECT_NE(fixed_text(fix_tree(dir.path(), /*all=*/true), "tests/test_model.py"), "");
}

TEST(FixMerge, TheProjectsLineLimitIsKept) {
  TempDir dir;
  dir.write("pyproject.toml", "[tool.ruff]\nline-length = 79\n");
  dir.write("m.py",
            "import torch\n\n\n"
            "def pick():\n"
            "    return \"cuda\" if torch.cuda.is_available() else \"cpu\"\n");
  const FixOutcome outcome = fix_tree(dir.path());
  EXPECT_EQ(fixed_text(outcome, "m.py"),
            "import torch\n\n\n"
            "def pick():\n"
            "    return (\"cuda\" if torch.cuda.is_available()\n"
            "            else \"mps\" if torch.backends.mps.is_available()\n"
            "            else \"cpu\")\n");
  // What cannot be broken at an `else` stays as it was, with the limit and where it comes from.
  dir.write("pyproject.toml", "[tool.black]\nline-length = 40\n");
  dir.write("m.py", "import torch\nfrom torch.utils.data import DataLoader\n\nloader = DataLoader([1], pin_memory=True)\n");
  const FixOutcome narrow = fix_tree(dir.path());
  EXPECT_EQ(narrow.sites_fixed(), 0u);
  EXPECT_NE(reason_at(narrow, 4).find("over the project's limit of 40 ([tool.black] line-length in pyproject.toml)"),
            std::string::npos)
      << reason_at(narrow, 4);
}

TEST(FixMerge, LongChainsBreakBeforeEachElse) {
  EXPECT_EQ(wrapped_at_else("    x = ", "a if b else c if d else e").value_or(""),
            "(a if b\n         else c if d\n         else e)");
  // Inside an open bracket of the line: no parentheses of its own.
  EXPECT_EQ(wrapped_at_else("f(", "a if b else c").value_or(""), "a if b\n  else c");
  // Inside a bracket of the replacement: aligned after it.
  EXPECT_EQ(wrapped_at_else("", "g(a if b else c, k=1)").value_or(""), "g(a if b\n  else c, k=1)");
  EXPECT_FALSE(wrapped_at_else("", "f(\"x else y\")"));  // an `else` in a string is no break
}

TEST(FixMerge, TheFilesOwnNameForTorchIsUsed) {
  TempDir dir;
  dir.write("m.py", "import torch as T\n\n\ndef f(x):\n    return x.cuda()\n");
  const std::string fixed = fixed_text(fix_tree(dir.path()), "m.py");
  EXPECT_NE(fixed.find("    if T.cuda.is_available():\n        device = T.device(\"cuda\")\n"), std::string::npos) << fixed;
  EXPECT_EQ(fixed.find("torch."), std::string::npos) << fixed;
}

TEST(FixMerge, AutocastStaysCudaOnlyBesideAGradScaler) {
  TempDir dir;
  dir.write("train.py",
            "import torch\n\n\n"
            "def step(model, x, opt):\n"
            "    scaler = torch.cuda.amp.GradScaler()\n"
            "    with torch.cuda.amp.autocast():\n"
            "        loss = model(x)\n"
            "    scaler.scale(loss).backward()\n");
  const FixOutcome outcome = fix_tree(dir.path());
  EXPECT_NE(reason_at(outcome, 6).find("GradScaler"), std::string::npos) << reason_at(outcome, 6);
  EXPECT_EQ(fixed_text(outcome, "train.py").find("torch.autocast("), std::string::npos);
  // The scaler made in a helper module, as a training loop often has it: autocast still stays.
  TempDir split;
  split.write("scaler.py", "import torch\n\n\nclass NativeScaler:\n    def __init__(self):\n"
                           "        self._scaler = torch.cuda.amp.GradScaler()\n");
  split.write("engine.py", "import torch\n\n\ndef step(model, x, loss_scaler):\n"
                           "    with torch.cuda.amp.autocast():\n        loss = model(x)\n    loss_scaler(loss)\n");
  const FixOutcome apart = fix_tree(split.path());
  EXPECT_EQ(fixed_text(apart, "engine.py").find("torch.autocast("), std::string::npos) << fixed_text(apart, "engine.py");
  // The trap: inference code with no scaler anywhere moves autocast to the device.
  TempDir inference;
  inference.write("engine.py", "import torch\n\n\ndef predict(model, x):\n"
                               "    with torch.cuda.amp.autocast():\n        return model(x)\n");
  EXPECT_NE(fixed_text(fix_tree(inference.path()), "engine.py").find("torch.autocast(device.type"), std::string::npos);
}

// The fix's own idioms are device-agnostic code to the scan: after --write, nothing is reported
// on a line the fix wrote.
TEST(FixMerge, AScanAfterTheFixReportsNothingOnTheLinesItWrote) {
  TempDir dir;
  dir.write("run.py",
            "import torch\n\n\n"
            "def run(model, x):\n"
            "    torch.cuda.synchronize()\n"
            "    y = model.cuda()(x.cuda())\n"
            "    torch.cuda.empty_cache()\n"
            "    return y\n\n\n"
            "if __name__ == \"__main__\":\n"
            "    run(torch.nn.Identity(), torch.zeros(1))\n");
  const FixOutcome outcome = fix_tree(dir.path());
  ASSERT_GT(outcome.sites_fixed(), 0u);
  std::string error;
  ASSERT_TRUE(write_fixes(dir.path(), outcome, error)) << error;
  const Pipeline pipeline(bundled_rules());
  ScanOptions scan;
  scan.jobs = 1;
  const ScanResult after = pipeline.scan(dir.path(), scan);
  for (const Finding& f : after.findings)
    if (f.path == "run.py") ADD_FAILURE() << "run.py:" << f.location.line << " " << f.rule << " is still reported";
  EXPECT_EQ(fix_tree(dir.path()).sites_fixed(), 0u);
}

}  // namespace mpsready::testing

namespace mpsready::testing {

// A class that keeps its device on the instance: its methods use `self.device`; one that keeps
// something else there gets no device of the method's own beside it.
TEST(FixMerge, AMethodUsesTheDeviceItsInstanceKeeps) {
  TempDir dir;
  dir.write("trainer.py",
            "import torch\n\n\n"
            "class Trainer:\n"
            "    def __init__(self, model):\n"
            "        self.device = torch.device(\"cuda\" if torch.cuda.is_available() else \"cpu\")\n"
            "        self.model = model\n\n"
            "    def step(self, x):\n"
            "        return self.model(x.cuda(non_blocking=True))\n");
  const FixOutcome outcome = fix_tree(dir.path());
  const std::string fixed = fixed_text(outcome, "trainer.py");
  EXPECT_NE(fixed.find("        return self.model(x.to(self.device, non_blocking=True))\n"), std::string::npos) << fixed;
  EXPECT_EQ(outcome.bindings_added(), 0u);
  dir.write("trainer.py",
            "import torch\n\n\n"
            "class Trainer:\n"
            "    def __init__(self, model, args):\n"
            "        self.device = args.device\n"
            "        self.model = model\n\n"
            "    def step(self, x):\n"
            "        return self.model(x.cuda())\n");
  const FixOutcome taken = fix_tree(dir.path());
  EXPECT_EQ(taken.sites_fixed(), 0u);
  EXPECT_EQ(taken.bindings_added(), 0u);
}

TEST(FixMerge, ADeprecatedAmpImportLosesTheNamesNothingReadsAnyMore) {
  TempDir dir;
  // `device = next(model.parameters()).device` is a device object the rewrite reuses; the
  // `autocast` the import bound is read nowhere after it, `custom_fwd` still is.
  const std::string body =
      "def predict(model, x):\n"
      "    device = next(model.parameters()).device\n"
      "    with autocast():\n"
      "        return model(x.to(device))\n";
  const std::string rewritten =
      "def predict(model, x):\n"
      "    device = next(model.parameters()).device\n"
      "    with torch.autocast(device.type, enabled=device.type != \"cpu\"):\n"
      "        return model(x.to(device))\n";
  dir.write("gone.py", "import torch\nfrom torch.cuda.amp import autocast  # deprecated\n\n\n" + body);
  dir.write("kept.py", "import torch\nfrom torch.cuda.amp import autocast, custom_fwd\n\n\n"
                       "@custom_fwd\ndef double(ctx, x):\n    return x * 2\n\n\n" + body);
  dir.write("exported.py", "import torch\nfrom torch.cuda.amp import autocast\n\n__all__ = [\"autocast\"]\n\n\n" + body);
  // Imported inside the function that uses it: its scope is that function. Under `try` it may be
  // a fallback, and stays.
  dir.write("local.py",
            "import torch\n\n\n"
            "def predict(model, x):\n"
            "    from torch.cuda.amp import autocast\n\n"
            "    device = next(model.parameters()).device\n"
            "    with autocast():\n"
            "        return model(x.to(device))\n");
  dir.write("fallback.py", "import torch\n\ntry:\n    from torch.cuda.amp import autocast\nexcept ImportError:\n    pass\n\n\n" + body);
  const FixOutcome outcome = fix_tree(dir.path());
  EXPECT_EQ(fixed_text(outcome, "gone.py"), "import torch\n\n\n" + rewritten);
  EXPECT_EQ(fixed_text(outcome, "local.py"),
            "import torch\n\n\n"
            "def predict(model, x):\n"
            "    device = next(model.parameters()).device\n"
            "    with torch.autocast(device.type, enabled=device.type != \"cpu\"):\n"
            "        return model(x.to(device))\n");
  EXPECT_NE(fixed_text(outcome, "fallback.py").find("    from torch.cuda.amp import autocast\n"), std::string::npos);
  EXPECT_EQ(fixed_text(outcome, "kept.py"), "import torch\nfrom torch.cuda.amp import custom_fwd\n\n\n"
                                            "@custom_fwd\ndef double(ctx, x):\n    return x * 2\n\n\n" + rewritten);
  // A name another module may import from here stays.
  EXPECT_EQ(fixed_text(outcome, "exported.py"),
            "import torch\nfrom torch.cuda.amp import autocast\n\n__all__ = [\"autocast\"]\n\n\n" + rewritten);
  EXPECT_EQ(outcome.imports_tidied(), 3u);
  EXPECT_EQ(outcome.sites_fixed(), 5u);  // an import tidied is not a site
  EXPECT_EQ(outcome.bindings_added(), 0u);
  // Converged: the fixed tree gives nothing more to rewrite or tidy.
  for (const FileFix& f : outcome.files) dir.write(f.path, f.after);
  const FixOutcome again = fix_tree(dir.path());
  EXPECT_TRUE(again.files.empty());
}

}  // namespace mpsready::testing
