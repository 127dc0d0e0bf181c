// The core importing a blocker from outside the core's folders (issue 26, item 10): a module the
// core imports on its default path is core code, whatever its folder (`examples/`,
// `third_party/`, a submodule's checkout), and the finding says which import made it so. The
// traps of the same shape keep their folder's role: the folder importing the core, the import
// behind a CUDA check or an import fallback, and a module nothing in the core imports.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

// The blocker and the portable site, at lines 2 and 6 of whatever folder holds them.
const char* const kFastPath =
    "import torch\n"
    "import flash_attn\n"
    "\n"
    "\n"
    "def fast(x):\n"
    "    return flash_attn.flash_attn_func(x.cuda(), x, x)\n";

const char* const kModel = "import torch\n\n\nclass Net(torch.nn.Module):\n    pass\n";

nlohmann::json scan_json(const fs::path& root) {
  const CliRun run = mpsready("scan " + quote(root.string()) + " --format json -q", false);
  EXPECT_EQ(run.code, 0) << run.out.substr(0, 2000);
  nlohmann::json doc = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << run.out.substr(0, 2000);
  return doc;
}

const nlohmann::json* finding(const nlohmann::json& doc, const std::string& path, int line) {
  if (doc.is_discarded()) return nullptr;
  for (const auto& f : doc["findings"])
    if (f["path"] == path && f["line"] == line) return &f;
  return nullptr;
}

// A package whose `__init__.py` imports the fast path at line 3 with `import_line`.
TempDir package_importing(const std::string& fast_path_file, const std::string& import_line) {
  TempDir dir;
  dir.write("pkg/__init__.py", "from .model import Net\n\n" + import_line + "\n");
  dir.write("pkg/model.py", kModel);
  dir.write(fast_path_file, kFastPath);
  return dir;
}

void expect_core(const nlohmann::json& doc, const std::string& path, const std::string& reason) {
  EXPECT_EQ(doc.value("verdict", ""), "stay-on-linux") << doc.dump();
  for (const int line : {2, 6}) {
    const nlohmann::json* f = finding(doc, path, line);
    ASSERT_NE(f, nullptr) << path << ":" << line << " " << doc.dump();
    EXPECT_TRUE((*f)["in_core"].get<bool>()) << f->dump();
    EXPECT_EQ((*f)["role"], "core") << f->dump();
    EXPECT_EQ((*f).value("context", ""), reason) << f->dump();
  }
  ASSERT_FALSE(doc["reasons"].empty());
  EXPECT_EQ(doc["reasons"][0]["rule"], "py-nvidia-only-import");
}

void expect_outside(const nlohmann::json& doc, const std::string& path, const std::string& role) {
  EXPECT_EQ(doc.value("verdict", ""), "mps-ready") << doc.dump();
  const nlohmann::json* f = finding(doc, path, 2);
  ASSERT_NE(f, nullptr) << doc.dump();
  EXPECT_FALSE((*f)["in_core"].get<bool>()) << f->dump();
  EXPECT_EQ((*f)["role"], role) << f->dump();
}

}  // namespace

// The case: `from examples.fastpath import fast` in pkg/__init__.py kept `mps-ready`.
TEST(CoreImport, ExampleModuleImportedByThePackageIsCore) {
  const TempDir dir = package_importing("examples/fastpath.py", "from examples.fastpath import fast");
  expect_core(scan_json(dir.path()), "examples/fastpath.py", "imported by the core from pkg/__init__.py:3");
}

TEST(CoreImport, ThirdPartyModuleImportedByThePackageIsCore) {
  const TempDir dir = package_importing("third_party/fastpath.py", "from third_party.fastpath import fast");
  expect_core(scan_json(dir.path()), "third_party/fastpath.py", "imported by the core from pkg/__init__.py:3");
}

// A submodule's checkout (its `.git` is a file naming the parent's module directory), scanned
// from an export of the tree, where it is walked like any folder: the package it holds is
// imported through its `__init__.py`, which carries in the file with the blocker.
TEST(CoreImport, SubmoduleCheckoutImportedByThePackageIsCore) {
  TempDir dir = package_importing("third_party/fastkern/fastkern/ops.py", "from fastkern.ops import fast");
  dir.write("third_party/fastkern/.git", "gitdir: ../../.git/modules/third_party/fastkern\n");
  dir.write("third_party/fastkern/fastkern/__init__.py", "from .ops import fast\n");
  expect_core(scan_json(dir.path()), "third_party/fastkern/fastkern/ops.py",
              "imported by the core from pkg/__init__.py:3");
}

// Through a chain: the package imports a vendored package, whose `__init__` imports the file.
TEST(CoreImport, ChainOfImportsIsNamed) {
  TempDir dir = package_importing("third_party/fastops/kernels.py", "from third_party.fastops import fast");
  dir.write("third_party/fastops/__init__.py", "from .kernels import fast\n");
  expect_core(scan_json(dir.path()), "third_party/fastops/kernels.py",
              "imported by the core through pkg/__init__.py:3 → third_party/fastops/__init__.py:1");
}

// Traps. The example imports the package, not the reverse: it stays an example.
TEST(CoreImport, ExampleImportingThePackageStaysExample) {
  TempDir dir;
  dir.write("pkg/__init__.py", "from .model import Net\n");
  dir.write("pkg/model.py", kModel);
  dir.write("examples/fastpath.py", std::string(kFastPath) + "\nfrom pkg import Net\n");
  expect_outside(scan_json(dir.path()), "examples/fastpath.py", "examples");
}

// The same import behind a CUDA check, or in a `try` whose `except ImportError` falls back.
TEST(CoreImport, GuardedOrFallbackImportIsNoBlocker) {
  for (const std::string import : {"import torch\nif torch.cuda.is_available():\n    from examples.fastpath import fast",
                                   "try:\n    from examples.fastpath import fast\nexcept ImportError:\n"
                                   "    def fast(x):\n        return x"}) {
    SCOPED_TRACE(import);
    const TempDir dir = package_importing("examples/fastpath.py", import);
    const nlohmann::json doc = scan_json(dir.path());
    expect_outside(doc, "examples/fastpath.py", "examples");
    if (const nlohmann::json* f = finding(doc, "examples/fastpath.py", 2))
      EXPECT_EQ(f->value("context", "").find("imported by the core"), std::string::npos) << f->dump();
  }
}

// A module of examples/ that nothing in the core imports; and a bare `import fastpath` from the
// package, which Python would not find in examples/ (no folder of scripts is on the core's path).
TEST(CoreImport, ExampleNobodyInTheCoreImportsStaysExample) {
  for (const std::string import : {"", "import fastpath"}) {
    SCOPED_TRACE(import);
    const TempDir dir = package_importing("examples/fastpath.py", import);
    expect_outside(scan_json(dir.path()), "examples/fastpath.py", "examples");
  }
}

}  // namespace mpsready::testing
