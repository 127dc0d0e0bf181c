// Each matcher kind once, on small real inputs, with rules built here (not the bundled ones).
#include <gtest/gtest.h>

#include "support/rule_builder.h"

namespace mpsready::testing {

TEST(CallMatcher, ResolvesCalleesThroughImportAliases) {
  TempDir dir;
  add_rule(dir, "py-t", R"J({"kind": "python.call", "params": {"callee": ["torch.cuda.synchronize"]}})J");
  const auto sites = scan_with_rules(dir,
                                     "import torch as t\n"                        // 1
                                     "from torch import cuda\n"                   // 2
                                     "from torch.cuda import synchronize as s\n"  // 3
                                     "t.cuda.synchronize()\n"                     // 4
                                     "cuda.synchronize()\n"                       // 5
                                     "s()\n"                                      // 6
                                     "other.cuda.synchronize()\n"                 // 7: not torch
                                     "# torch.cuda.synchronize()\n");             // 8: comment
  EXPECT_EQ(lines_of(sites), (std::vector<int>{4, 5, 6}));
  EXPECT_EQ(sites[0].message, "torch.cuda.synchronize|torch.cuda.synchronize|{arg}");
}

TEST(CallMatcher, MethodsOnlyOnValuesNotModules) {
  TempDir dir;
  add_rule(dir, "py-t", R"J({"kind": "python.call", "params": {"method": ["double"]}})J");
  const auto sites = scan_with_rules(dir,
                                     "import numpy as np\n"
                                     "x.double()\n"        // 2
                                     "np.double(3)\n"      // 3: numpy function, not a method call
                                     "double(x)\n"         // 4: plain function
                                     "self.net.double()\n"); // 5
  EXPECT_EQ(lines_of(sites), (std::vector<int>{2, 5}));
}

TEST(CallMatcher, WhenDowncastInfoNamesTheHelper) {
  TempDir dir;
  add_rule(dir, "py-t", R"J({"kind": "python.call", "params": {"method": ["double"]}})J", R"J("when_downcast": "info")J");
  const auto sites = scan_with_rules(dir,
                                     "def to_device(x, device):\n"
                                     "    if 'mps' in str(device):\n"
                                     "        x = x.to(torch.float32)\n"
                                     "    return x.to(device)\n"
                                     "def move(x, device):\n"
                                     "    if device.type == 'mps':\n"
                                     "        x = x.contiguous()\n"
                                     "    return x.to(device)\n"
                                     "a = to_device(x.double(), d)\n"      // 9: info, names the helper
                                     "b = move(x.double(), d)\n");         // 10: kept
  ASSERT_EQ(lines_of(sites), (std::vector<int>{9, 10}));
  EXPECT_NE(sites[0].message.find("passed to `to_device`, which casts to float32 on MPS"), std::string::npos);
  EXPECT_EQ(sites[1].message.find("passed to"), std::string::npos);
}

TEST(CallMatcher, ArgumentConstraintsByPositionKeywordAndAbsence) {
  TempDir dir;
  add_rule(dir, "py-a", R"J({"kind": "python.call", "params": {"method": ["to"], "report": "argument",
           "arg": {"position": 0, "keyword": "device", "value": {"string": "^cuda(:([0-9]+|\\{\\}))?$"}}}})J");
  add_rule(dir, "py-b", R"J({"kind": "python.call", "params": {"callee": ["torch.amp.GradScaler"],
           "arg": {"position": 0, "keyword": "device", "value": {"string": "^cuda"}, "or_absent": true}}})J");
  const auto sites = scan_with_rules(dir,
                                     "import torch\n"
                                     "x.to('cuda')\n"                      // 2 a
                                     "x.to(device=f\"cuda:{rank}\")\n"     // 3 a
                                     "x.to('cpu')\n"                       // 4
                                     "x.to(dev)\n"                         // 5
                                     "print('cuda')\n"                     // 6
                                     "torch.amp.GradScaler()\n"            // 7 b (defaults to cuda)
                                     "torch.amp.GradScaler('mps')\n"       // 8
                                     "torch.amp.GradScaler(device='cuda')\n");  // 9 b
  ASSERT_EQ(sites.size(), 4u);
  EXPECT_EQ(sites[0].rule, "py-a");
  EXPECT_EQ(sites[0].line, 2);
  EXPECT_EQ(sites[0].message, "x.to|x.to|'cuda'");
  EXPECT_EQ(sites[1].line, 3);
  EXPECT_EQ(sites[2].line, 7);
  EXPECT_EQ(sites[3].line, 9);
}

TEST(CallMatcher, ContainsStringNamesAndTrueValues) {
  TempDir dir;
  add_rule(dir, "py-a", R"J({"kind": "python.call", "params": {"callee": ["*"],
           "arg": {"keyword": "sources", "value": {"contains_string": "\\.cu$"}}}})J");
  add_rule(dir, "py-b", R"J({"kind": "python.call", "params": {"callee": ["torch.from_numpy"],
           "arg": {"position": 0, "value": {"names": ["numpy.float64"]}}}})J");
  add_rule(dir, "py-c", R"J({"kind": "python.call", "params": {"callee": ["*"],
           "arg": {"keyword": "pin_memory", "value": {"true": true}}}})J");
  const auto sites = scan_with_rules(dir,
                                     "import numpy as np, torch\n"
                                     "load(name='k', sources=['a.cpp', 'k.cu'])\n"     // 2 a
                                     "load(name='k', sources=['a.cpp'])\n"             // 3
                                     "torch.from_numpy(a.astype(np.float64))\n"        // 4 b
                                     "torch.from_numpy(a.astype(np.float32))\n"        // 5
                                     "DataLoader(ds, pin_memory=True)\n"               // 6 c
                                     "DataLoader(ds, pin_memory=torch.cuda.is_available())\n");  // 7
  EXPECT_EQ(lines_of(sites), (std::vector<int>{2, 4, 6}));
}

TEST(CallMatcher, TableRecordsOverrideImpactAndFillTemplates) {
  TempDir dir;
  dir.write("rules/tables/api.json", R"J({"records": [
      {"name": "torch.cuda.*", "eq": "generic"},
      {"name": "torch.cuda.synchronize", "eq": "torch.mps.synchronize()", "impact": "info",
       "message": "use {eq}"}]})J");
  add_rule(dir, "py-t", R"J({"kind": "python.call", "params": {"table": "api", "exclude_callee": ["torch.cuda.is_available"]}})J");
  const RuleSet rules = RuleSet::load(dir.path() / "rules");
  const Pipeline pipeline(rules);
  dir.write("repo/a.py", "import torch\ntorch.cuda.synchronize()\ntorch.cuda.ipc_collect()\ntorch.cuda.is_available()\n");
  const ScanResult result = pipeline.scan(dir.path() / "repo", ScanOptions{});
  ASSERT_EQ(result.findings.size(), 2u);
  EXPECT_EQ(result.findings[0].message, "use torch.mps.synchronize()");
  EXPECT_EQ(result.findings[0].impact, Impact::info);
  EXPECT_EQ(result.findings[1].impact, Impact::portable);
  EXPECT_EQ(result.findings[1].message, "torch.cuda.ipc_collect|torch.cuda.ipc_collect|{arg}");
}

// One matcher of a rule may find a harmless form: its `impact` caps its own sites and its `note`
// says why, while the rule's other matchers keep the rule's impact.
TEST(CallMatcher, AMatchersOwnImpactCapsOnlyItsSitesAndAddsItsNote) {
  TempDir dir;
  add_rule(dir, "py-t", R"J([
      {"kind": "python.call", "params": {"callee": ["torch.amp.custom_fwd"], "impact": "info", "note": "harmless here"}},
      {"kind": "python.name", "params": {"names": ["torch.cuda.amp.custom_bwd"], "impact": "info", "note": "also harmless"}},
      {"kind": "python.call", "params": {"callee": ["torch.cuda.synchronize"]}}])J");
  const RuleSet rules = RuleSet::load(dir.path() / "rules");
  const Pipeline pipeline(rules);
  dir.write("repo/a.py",
            "import torch\n"
            "f = torch.amp.custom_fwd(device_type='cuda')\n"  // 2
            "g = torch.cuda.amp.custom_bwd\n"                // 3
            "torch.cuda.synchronize()\n");                   // 4
  const ScanResult result = pipeline.scan(dir.path() / "repo", ScanOptions{});
  ASSERT_EQ(result.findings.size(), 3u);
  EXPECT_EQ(result.findings[0].impact, Impact::info);
  EXPECT_NE(result.findings[0].message.find("; harmless here"), std::string::npos) << result.findings[0].message;
  EXPECT_EQ(result.findings[1].impact, Impact::info);
  EXPECT_NE(result.findings[1].message.find("; also harmless"), std::string::npos) << result.findings[1].message;
  EXPECT_EQ(result.findings[2].impact, Impact::portable);
  EXPECT_EQ(result.findings[2].message.find("harmless"), std::string::npos);
  // An impact without a note says nothing of why: the rule does not load.
  TempDir bad;
  add_rule(bad, "py-t", R"J({"kind": "python.call", "params": {"callee": ["torch.x"], "impact": "info"}})J");
  EXPECT_THROW(
      {
        const RuleSet bad_rules = RuleSet::load(bad.path() / "rules");
        const Pipeline bad_pipeline(bad_rules);
      },
      std::exception);
}

// A matcher's `guarded_impact` replaces the rule's lowering for its own guarded sites only.
TEST(CallMatcher, AMatchersGuardedImpactAppliesToItsGuardedSites) {
  TempDir dir;
  add_rule(dir, "py-t", R"J([
      {"kind": "python.call", "params": {"callee": ["torch.utils.cpp_extension.load"], "guarded_impact": "info"}},
      {"kind": "python.call", "params": {"callee": ["torch.utils.cpp_extension.CUDAExtension"]}}])J",
           "", "", "blocker");
  const RuleSet rules = RuleSet::load(dir.path() / "rules");
  const Pipeline pipeline(rules);
  dir.write("repo/a.py",
            "import torch\nfrom torch.utils.cpp_extension import load, CUDAExtension\n"
            "if torch.cuda.is_available():\n"
            "    ext = load(name='k', sources=['k.cu'])\n"          // 4: guarded, the matcher's info
            "    spec = CUDAExtension('k', ['k.cu'])\n"            // 5: guarded, the rule's lowering
            "other = load(name='j', sources=['j.cu'])\n");        // 6: unguarded
  const ScanResult result = pipeline.scan(dir.path() / "repo", ScanOptions{});
  ASSERT_EQ(result.findings.size(), 3u);
  EXPECT_EQ(result.findings[0].impact, Impact::info);
  EXPECT_EQ(result.findings[1].impact, Impact::portable);
  EXPECT_EQ(result.findings[2].impact, Impact::blocker);
}

TEST(NameMatcher, LongestChainPrefixesAndCallsExcluded) {
  TempDir dir;
  add_rule(dir, "py-t", R"J({"kind": "python.name", "params": {"names": ["torch.float64", "torch.backends.cudnn.*"]}})J");
  const auto sites = scan_with_rules(dir,
                                     "import torch\n"
                                     "from torch import float64 as f64\n"
                                     "x = torch.zeros(3, dtype=torch.float64)\n"   // 3
                                     "y = f64\n"                                   // 4
                                     "torch.backends.cudnn.benchmark = True\n"     // 5
                                     "torch.backends.cudnn.is_available()\n"       // 6: a call
                                     "n = torch.float64.itemsize\n"                // 7: prefix
                                     "z = torch.float32\n");                       // 8
  EXPECT_EQ(lines_of(sites), (std::vector<int>{3, 4, 5, 7}));
}

TEST(ImportMatcher, ModulesCoverSubmodulesAndFromImportsReportOnce) {
  TempDir dir;
  add_rule(dir, "py-t", R"J({"kind": "python.import", "params": {"modules": ["apex", "numba.cuda"]}})J", "", "", "blocker");
  const auto sites = scan_with_rules(dir,
                                     "import apex\n"                                   // 1
                                     "from apex.optimizers import FusedAdam, FusedLAMB\n"  // 2 (once)
                                     "from numba import cuda, jit\n"                   // 3
                                     "from numba import jit\n"                         // 4
                                     "import apexlib\n"                                // 5
                                     "from . import apex\n"                            // 6 relative
                                     "try:\n"
                                     "    import apex.amp as amp\n"                    // 8 guarded: a probe
                                     "    HAS_AMP = True\n"
                                     "except ImportError:\n"
                                     "    HAS_AMP = False\n"
                                     "try:\n"
                                     "    import apex.fp16_utils as fp16\n"            // 13 a sentinel: not guarded
                                     "except ImportError:\n"
                                     "    fp16 = None\n");
  EXPECT_EQ(lines_of(sites), (std::vector<int>{1, 2, 3, 8, 13}));
  EXPECT_TRUE(sites[3].guarded);
  EXPECT_FALSE(sites[4].guarded);
  EXPECT_FALSE(sites[0].guarded);
}

TEST(QueryMatcher, CustomPredicatesAndFindingCapture) {
  TempDir dir;
  add_rule(dir, "py-q", R"J({"kind": "python.query"})J", "",
           "(conditional_expression (string) @finding (_) @cond (_) @alt\n"
           "  (#string-match? @finding \"^cuda$\") (#cuda-check? @cond) (#not-mentions? @alt \"mps\"))\n");
  const auto sites = scan_with_rules(dir,
                                     "import torch\n"
                                     "d = 'cuda' if torch.cuda.is_available() else 'cpu'\n"   // 2
                                     "d = 'cuda' if torch.cuda.is_available() else 'mps'\n"   // 3
                                     "d = 'cuda' if fast else 'cpu'\n");                      // 4
  EXPECT_EQ(lines_of(sites), (std::vector<int>{2}));
}

TEST(QueryMatcher, RejectsQueriesWithoutFindingOrWithUnknownPredicates) {
  TempDir dir;
  add_rule(dir, "py-q", R"J({"kind": "python.query"})J", "", "(call) @x\n");
  EXPECT_THROW({ const RuleSet r = RuleSet::load(dir.path() / "rules"); Pipeline p(r); }, RuleError);
  TempDir dir2;
  add_rule(dir2, "py-q", R"J({"kind": "python.query"})J", "", "((call) @finding (#frobnicate? @finding))\n");
  EXPECT_THROW({ const RuleSet r = RuleSet::load(dir2.path() / "rules"); Pipeline p(r); }, RuleError);
  TempDir dir3;
  add_rule(dir3, "py-q", R"J({"kind": "python.query"})J", "", "(no_such_node) @finding\n");
  EXPECT_THROW({ const RuleSet r = RuleSet::load(dir3.path() / "rules"); Pipeline p(r); }, RuleError);
}

TEST(Guards, TestSkipsOptInsAndNamesThatOnlyContainCuda) {
  TempDir dir;
  add_rule(dir, "py-t", R"J({"kind": "python.call", "params": {"method": ["cuda"]}})J");
  const auto sites = scan_with_rules(dir,
                                     "import sys, unittest, pytest, torch\n"
                                     "@unittest.skipIf(not torch.cuda.is_available(), 'needs CUDA')\n"
                                     "def test_a(m):\n"
                                     "    m.cuda()\n"                                   // 4 guarded
                                     "@unittest.skipUnless(torch.cuda.is_available(), 'needs CUDA')\n"
                                     "def test_b(m):\n"
                                     "    m.cuda()\n"                                   // 7 guarded
                                     "@unittest.skipIf(sys.platform == 'win32', 'no windows')\n"
                                     "def test_c(m):\n"
                                     "    m.cuda()\n"                                   // 10 not guarded
                                     "def test_d(m):\n"
                                     "    if not torch.cuda.is_available():\n"
                                     "        pytest.skip('needs CUDA')\n"
                                     "    m.cuda()\n"                                   // 14 guarded
                                     "def train(m, use_amp=False):\n"
                                     "    if use_amp:\n"
                                     "        m.cuda()\n"                               // 17 guarded: opt-in
                                     "    if m.trace_cuda:\n"
                                     "        m.cuda()\n"                               // 19 not guarded: a name
                                     "    if not torch.cuda.is_available() or not use_amp:\n"
                                     "        return m\n"
                                     "    return m.cuda()\n"                            // 22 guarded: `or` early exit
                                     "def place(m, x):\n"
                                     "    if x.device.type == 'mps':\n"
                                     "        return m.to(x.device)\n"
                                     "    else:\n"
                                     "        return m.cuda()\n"                        // 27 guarded: MPS-aware
                                     "    if x.device.type != 'mps':\n"
                                     "        m.cuda()\n"                               // 29 guarded
                                     "    if x.device.type == 'cpu':\n"
                                     "        pass\n"
                                     "    else:\n"
                                     "        m.cuda()\n");                             // 33 not guarded: MPS lands here
  std::vector<std::pair<int, bool>> got;
  for (const auto& s : sites) got.emplace_back(s.line, s.guarded);
  EXPECT_EQ(got, (std::vector<std::pair<int, bool>>{{4, true}, {7, true}, {10, false}, {14, true}, {17, true},
                                                    {19, false}, {22, true}, {27, true}, {29, true}, {33, false}}));
}

TEST(Guards, CudaChecksFallbacksAndEarlyReturns) {
  TempDir dir;
  add_rule(dir, "py-t", R"J({"kind": "python.call", "params": {"method": ["cuda"]}})J");
  const auto sites = scan_with_rules(dir,
                                     "import torch\n"
                                     "try:\n"
                                     "    import apex\n"
                                     "    HAS_APEX = True\n"
                                     "except ImportError:\n"
                                     "    HAS_APEX = False\n"
                                     "if torch.cuda.is_available():\n"
                                     "    a.cuda()\n"                           // 8 guarded
                                     "if device.type == 'cuda':\n"
                                     "    b.cuda()\n"                           // 10 guarded
                                     "if not torch.cuda.is_available():\n"
                                     "    pass\n"
                                     "else:\n"
                                     "    c.cuda()\n"                           // 14 guarded
                                     "x = m.cuda() if use_cuda else m\n"        // 15 guarded
                                     "if HAS_APEX:\n"
                                     "    d.cuda()\n"                           // 17 guarded
                                     "def f(m):\n"
                                     "    if not torch.cuda.is_available():\n"
                                     "        return m\n"
                                     "    return m.cuda()\n"                    // 21 guarded
                                     "def g(m):\n"
                                     "    if not torch.cuda.is_available():\n"
                                     "        raise RuntimeError('needs CUDA')\n"
                                     "    return m.cuda()\n"                    // 25 NOT guarded
                                     "e.cuda()\n"                               // 26
                                     "if torch.backends.mps.is_available():\n"
                                     "    f.cuda()\n"                           // 28 NOT guarded
                                     "torch.cuda.is_available() and g.cuda()\n");  // 29 guarded
  std::vector<std::pair<int, bool>> got;
  for (const auto& s : sites) got.emplace_back(s.line, s.guarded);
  EXPECT_EQ(got, (std::vector<std::pair<int, bool>>{{8, true}, {10, true}, {14, true}, {15, true},
                                                    {17, true}, {21, true}, {25, false}, {26, false},
                                                    {28, false}, {29, true}}));
}

// A flag named like "this dependency is there" guards only when it says so; a parameter of the
// same name is the caller's option, and the branch of a default that is on runs on a Mac.
TEST(Guards, FeatureFlagParametersAreOptionsNotAvailability) {
  TempDir dir;
  add_rule(dir, "py-t", R"J({"kind": "python.call", "params": {"method": ["cuda"]}})J");
  const auto sites = scan_with_rules(dir,
                                     "def f(m, has_bias=True):\n"
                                     "    if has_bias:\n"
                                     "        m.cuda()\n"                       // 3 NOT guarded: an option
                                     "def g(m, apex_available: bool = True):\n"
                                     "    if apex_available:\n"
                                     "        m.cuda()\n"                       // 6 NOT guarded: an option
                                     "def h(m, use_cuda=True):\n"
                                     "    if use_cuda:\n"
                                     "        m.cuda()\n"                       // 9 guarded: names CUDA
                                     "def k(m):\n"
                                     "    if has_bias:\n"
                                     "        m.cuda()\n"                       // 12 guarded: not a parameter
                                     "def outer(has_bias=True):\n"
                                     "    def inner(m):\n"
                                     "        if has_bias:\n"
                                     "            m.cuda()\n");                 // 16 guarded: inner's own parameters only
  std::vector<std::pair<int, bool>> got;
  for (const auto& s : sites) got.emplace_back(s.line, s.guarded);
  EXPECT_EQ(got, (std::vector<std::pair<int, bool>>{{3, false}, {6, false}, {9, true}, {12, true}, {16, true}}));
}

TEST(Guards, DistributedLaunchChecksGuardButRankZeroDoesNot) {
  TempDir dir;
  add_rule(dir, "py-t", R"J({"kind": "python.call", "params": {"method": ["cuda"]}})J");
  const auto sites = scan_with_rules(dir,
                                     "import os, torch\n"
                                     "import torch.distributed as dist\n"
                                     "if int(os.environ.get('LOCAL_RANK', -1)) != -1:\n"
                                     "    a.cuda()\n"                           // 4 guarded: launched
                                     "if args.local_rank == -1:\n"
                                     "    b.cuda()\n"                           // 6 NOT guarded: single process
                                     "else:\n"
                                     "    c.cuda()\n"                           // 8 guarded
                                     "if dist.is_initialized():\n"
                                     "    d.cuda()\n"                           // 10 guarded
                                     "if 'WORLD_SIZE' in os.environ:\n"
                                     "    e.cuda()\n"                           // 12 guarded
                                     "if rank == 0:\n"
                                     "    f.cuda()\n"                           // 14 NOT guarded: rank 0 runs alone too
                                     "if count != -1:\n"
                                     "    g.cuda()\n");                         // 16 NOT guarded: not a rank
  std::vector<std::pair<int, bool>> got;
  for (const auto& s : sites) got.emplace_back(s.line, s.guarded);
  EXPECT_EQ(got, (std::vector<std::pair<int, bool>>{{4, true}, {6, false}, {8, true}, {10, true},
                                                    {12, true}, {14, false}, {16, false}}));
}

TEST(Guards, GuardedImpactIsLoweredOrDropped) {
  TempDir dir;
  add_rule(dir, "py-lower", R"J({"kind": "python.call", "params": {"method": ["cuda"]}})J", "", "", "blocker");
  add_rule(dir, "py-drop", R"J({"kind": "python.call", "params": {"method": ["cuda"]}})J",
           R"J("when_guarded": "drop")J");
  const RuleSet rules = RuleSet::load(dir.path() / "rules");
  const Pipeline pipeline(rules);
  dir.write("repo/a.py", "import torch\nif torch.cuda.is_available():\n    m.cuda()\n");
  const ScanResult result = pipeline.scan(dir.path() / "repo", ScanOptions{});
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].rule, "py-lower");
  EXPECT_EQ(result.findings[0].impact, Impact::portable);
  EXPECT_EQ(result.summary.verdict, Verdict::partial);
}

TEST(Supersedes, AnOuterFindingReplacesTheOneItContains) {
  TempDir dir;
  add_rule(dir, "py-inner", R"J({"kind": "python.call", "params": {"method": ["to"]}})J");
  add_rule(dir, "py-outer", R"J({"kind": "python.query"})J", R"J("supersedes": ["py-inner"])J",
           "((expression_statement (call) @finding))\n");
  const auto sites = scan_with_rules(dir, "x.to('cuda')\ny = x.to('cuda')\n");
  ASSERT_EQ(sites.size(), 2u);
  EXPECT_EQ(sites[0].rule, "py-outer");  // line 1: the statement is the call itself
  EXPECT_EQ(sites[1].rule, "py-inner");  // line 2: an assignment, not superseded
}

}  // namespace mpsready::testing
