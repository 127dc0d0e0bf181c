// Python spellings of a blocker that Python reads as the blocker (issue 26, item 6): identifiers
// Python normalises with NFKC (PEP 3131), a PEP 263 coding cookie, a star import from a local
// module that binds `torch`, and imports by string (`__import__`, `importlib.import_module`).
// One test per case, each on a generated repository scanned by the real executable.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

// path:line:rule -> impact
using Sites = std::map<std::string, std::string>;

nlohmann::json scan_json(const fs::path& root) {
  const CliRun run = mpsready("scan " + quote(root.string()) + " --format json", false);
  EXPECT_EQ(run.code, 0) << run.out.substr(0, 2000);
  nlohmann::json doc = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << run.out.substr(0, 2000);
  return doc.is_discarded() ? nlohmann::json::object({{"errors", nlohmann::json::array()},
                                                      {"findings", nlohmann::json::array()}})
                            : doc;
}

Sites sites(const nlohmann::json& doc) {
  Sites out;
  for (const auto& f : doc["findings"])
    out[f["path"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()) + ":" +
        f["rule"].get<std::string>()] = f["impact"].get<std::string>();
  return out;
}

std::string dump(const Sites& s) {
  std::string out;
  for (const auto& [site, impact] : s) out += "  " + site + " (" + impact + ")\n";
  return out;
}

// Reasons given for one path among the scan's errors, joined.
std::string errors_of(const nlohmann::json& doc, const std::string& path) {
  std::string out;
  for (const auto& e : doc["errors"])
    if (e["path"] == path) out += e["reason"].get<std::string>() + " | ";
  return out;
}

}  // namespace

// `import 𝐟𝐥𝐚𝐬𝐡_attn` imports flash_attn and `x.ｃｕｄａ()` calls .cuda(): Python normalises
// identifiers with NFKC. The second file holds no ASCII "cuda" at all, so the needle prefilter
// must see the normalised text too.
TEST(PythonEvasion, NfkcIdentifiersAreTheNamesPythonReads) {
  TempDir dir;
  dir.write("attn.py", "import \xF0\x9D\x90\x9F\xF0\x9D\x90\xA5\xF0\x9D\x90\x9A\xF0\x9D\x90\xAC\xF0\x9D\x90\xA1_attn\n");
  dir.write("move.py", "import torch\n# d\xC3\xA9j\xC3\xA0 vu\nx = torch.zeros(1).\xEF\xBD\x83\xEF\xBD\x95\xEF\xBD\x84\xEF\xBD\x81()\n");
  // In a string the fullwidth letters stay what they are: "ｃｕｄａ" is no CUDA device.
  dir.write("text.py", "import torch\nx = torch.zeros(1).to(\"\xEF\xBD\x83\xEF\xBD\x95\xEF\xBD\x84\xEF\xBD\x81\")\n");
  const nlohmann::json doc = scan_json(dir.path());
  const Sites found = sites(doc);
  EXPECT_EQ(found.count("attn.py:1:py-nvidia-only-import"), 1u) << dump(found);
  EXPECT_EQ(found.count("move.py:3:py-tensor-dot-cuda"), 1u) << dump(found);
  for (const auto& [site, impact] : found) EXPECT_NE(site.rfind("text.py:", 0), 0u) << site;
  // The snippet shows the file as written, so a reader sees the disguise.
  for (const auto& f : doc["findings"])
    if (f["path"] == "attn.py") EXPECT_NE(f["snippet"].get<std::string>().find("\xF0\x9D\x90\x9F"), std::string::npos);
}

// A PEP 263 cookie names the encoding Python decodes the file from: in UTF-7, `+AGk-mport` is
// `import`. A cookie naming a codec the scanner cannot decode is reported.
TEST(PythonEvasion, CodingCookieIsHonoured) {
  TempDir dir;
  dir.write("seven.py", "# -*- coding: utf-7 -*-\n+AGk-mport flash+AF8-attn\n");
  dir.write("latin.py", "# vim: set fileencoding=latin-1 :\n# caf\xE9\nimport flash_attn\n");
  dir.write("escape.py", "# coding: unicode_escape\n\\x69mport flash_attn\n");
  const nlohmann::json doc = scan_json(dir.path());
  const Sites found = sites(doc);
  EXPECT_EQ(found.count("seven.py:2:py-nvidia-only-import"), 1u) << dump(found);
  EXPECT_EQ(found.count("latin.py:3:py-nvidia-only-import"), 1u) << dump(found);
  // Latin-1 decodes: no complaint about invalid UTF-8.
  EXPECT_EQ(errors_of(doc, "latin.py"), "");
  EXPECT_NE(errors_of(doc, "escape.py").find("unicode_escape"), std::string::npos) << doc["errors"].dump();
}

// `from .common import *` binds whatever common.py binds at module level, through further star
// imports too; a name the star-imported module does not bind stays unbound.
TEST(PythonEvasion, LocalStarImportBindsTorch) {
  TempDir dir;
  dir.write("pkg/__init__.py", "");
  dir.write("pkg/base.py", "import torch as T\n");
  dir.write("pkg/common.py", "from .base import *\nimport os\n");
  dir.write("pkg/train.py", "from .common import *\n\nT.cuda.set_device(0)\n");
  dir.write("pkg/plain.py", "import os\n");
  dir.write("pkg/other.py", "from .plain import *\n\nT.cuda.set_device(0)\n");
  // `__all__` limits what a star import brings.
  dir.write("pkg/limited.py", "import torch as T\n__all__ = [\"helper\"]\ndef helper():\n    pass\n");
  dir.write("pkg/uses_limited.py", "from .limited import *\n\nT.cuda.set_device(0)\n");
  // A cycle of star imports ends.
  dir.write("pkg/loop_a.py", "from .loop_b import *\nimport torch\n");
  dir.write("pkg/loop_b.py", "from .loop_a import *\n");
  dir.write("pkg/uses_loop.py", "from .loop_b import *\n\ntorch.cuda.set_device(0)\n");
  const Sites found = sites(scan_json(dir.path()));
  EXPECT_EQ(found.count("pkg/train.py:3:py-torch-cuda-api"), 1u) << dump(found);
  EXPECT_EQ(found.count("pkg/uses_loop.py:3:py-torch-cuda-api"), 1u) << dump(found);
  EXPECT_EQ(found.count("pkg/other.py:3:py-torch-cuda-api"), 0u) << dump(found);
  EXPECT_EQ(found.count("pkg/uses_limited.py:3:py-torch-cuda-api"), 0u) << dump(found);
}

// `__import__("flash_attn")` and `importlib.import_module(...)` import like `import flash_attn`,
// and an ImportError fallback around them guards them the same way.
TEST(PythonEvasion, StringImportsAreImports) {
  TempDir dir;
  dir.write("dunder.py", "fa = __import__(\"flash_attn\")\n");
  dir.write("lib.py", "import importlib\nops = importlib.import_module(\"flash_attn.ops\")\n");
  dir.write("bare.py", "from importlib import import_module\nfa = import_module('flash_attn')\n");
  dir.write("plain.py", "import importlib\nname = 'flash_attn'\nm = importlib.import_module(name)\nn = importlib.import_module('json')\n");
  // A fallback that leaves a working path: every use tests the name first.
  const std::string fallback_tail =
      "except ImportError:\n    fa = None\n\ndef attend(q):\n    if fa is not None:\n        return fa.flash_attn_func(q)\n    return q\n";
  dir.write("guarded_statement.py", "try:\n    import flash_attn as fa\n" + fallback_tail);
  dir.write("guarded_string.py", "import importlib\ntry:\n    fa = importlib.import_module(\"flash_attn\")\n" + fallback_tail);
  const Sites found = sites(scan_json(dir.path()));
  EXPECT_EQ(found.count("dunder.py:1:py-nvidia-only-import"), 1u) << dump(found);
  EXPECT_EQ(found.count("lib.py:2:py-nvidia-only-import"), 1u) << dump(found);
  EXPECT_EQ(found.count("bare.py:2:py-nvidia-only-import"), 1u) << dump(found);
  for (const auto& [site, impact] : found) EXPECT_NE(site.rfind("plain.py:", 0), 0u) << site;
  ASSERT_EQ(found.count("guarded_statement.py:2:py-nvidia-only-import"), 1u) << dump(found);
  ASSERT_EQ(found.count("guarded_string.py:3:py-nvidia-only-import"), 1u) << dump(found);
  EXPECT_NE(found.at("guarded_statement.py:2:py-nvidia-only-import"), "blocker");
  EXPECT_EQ(found.at("guarded_string.py:3:py-nvidia-only-import"),
            found.at("guarded_statement.py:2:py-nvidia-only-import"));
}

}  // namespace mpsready::testing
