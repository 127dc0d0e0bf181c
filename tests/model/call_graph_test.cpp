// The function-level call graph and the Mac path, on small repositories written here: each
// file is parsed by the real front end (python/code_graph_facts.h) and the graph built by the
// real model.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include <string>
#include <utility>
#include <vector>

#include "model/call_graph.h"
#include "model/mac_path.h"
#include "python/code_graph_facts.h"
#include "python/python_file.h"
#include "python/ts_python.h"

namespace mpsready::testing {
namespace {

using Files = std::vector<std::pair<std::string, std::string>>;

class Graph {
 public:
  // `missing`: packages with no macOS build (normalized names), as the assessment reads them
  // from the package table.
  explicit Graph(const Files& files, const std::set<std::string>* missing = nullptr) {
    if (missing) missing_ = *missing;
    PythonParser parser;
    for (const auto& [path, source] : files) {
      facts_.python_files.push_back(path);
      paths_.push_back(path);
      sources_.push_back(source);
      TreePtr tree = parser.parse(source, 10'000'000);
      const PythonFile file(source, tree.get());
      facts_.code.push_back(scan_code_graph(file, path));
    }
    model_.emplace(facts_, paths_, ModelConfig{});
    graph_.emplace(facts_, *model_);
    mac_.emplace(facts_, *model_, *graph_, &missing_);
  }

  std::optional<size_t> node(const std::string& path, const std::string& name) const {
    for (size_t i = 0; i < graph_->nodes().size(); ++i)
      if (graph_->nodes()[i].path == path && graph_->nodes()[i].name == name) return i;
    return std::nullopt;
  }
  // Whether `from` has an edge of kind `via` to `to` (each "path:name").
  bool edge(const std::string& from_path, const std::string& from, const std::string& to_path, const std::string& to,
            char via = 'c') const {
    const auto a = node(from_path, from), b = node(to_path, to);
    if (!a || !b) return false;
    for (const size_t e : graph_->out(*a))
      if (graph_->edges()[e].to == *b && graph_->edges()[e].via == via) return true;
    return false;
  }
  MacReach at(const std::string& path, const std::string& function) const {
    const auto n = node(path, function);
    EXPECT_TRUE(n) << function;
    return *mac_->at(path, graph_->nodes()[*n].line);
  }
  // The status of the site that starts at the first `marker` of `path`, the marker's bytes.
  MacReach site(const std::string& path, const std::string& marker) const {
    for (size_t i = 0; i < paths_.size(); ++i) {
      if (paths_[i] != path) continue;
      const size_t at = sources_[i].find(marker);
      EXPECT_NE(at, std::string::npos) << marker;
      if (at == std::string::npos) return {};
      const int line = 1 + static_cast<int>(std::count(sources_[i].begin(), sources_[i].begin() + static_cast<long>(at), '\n'));
      const auto reach = mac_->at(path, line, static_cast<uint32_t>(at), static_cast<uint32_t>(at + marker.size()));
      EXPECT_TRUE(reach) << marker;
      return reach ? *reach : MacReach{};
    }
    ADD_FAILURE() << path;
    return {};
  }
  const CallGraph& graph() const { return *graph_; }
  const CodeGraphFact& code(size_t i) const { return facts_.code[i]; }

 private:
  std::set<std::string> missing_;
  RepoFacts facts_;
  std::vector<std::string> paths_;
  std::vector<std::string> sources_;
  std::optional<RepoModel> model_;
  std::optional<CallGraph> graph_;
  std::optional<MacPath> mac_;
};

TEST(CallGraph, ResolvesAliasesRelativeImportsAndReExports) {
  const Graph g({{"pkg/__init__.py", "from .ops import smooth\n"},
                 {"pkg/ops.py", "def smooth(x):\n    return x\n"},
                 {"pkg/use_alias.py", "from pkg import ops as o\nimport pkg.ops as po\n\ndef a(x):\n    o.smooth(x)\n    po.smooth(x)\n"},
                 {"pkg/use_relative.py", "from .ops import smooth as s\nfrom . import ops\n\ndef b(x):\n    s(x)\n\ndef c(x):\n    ops.smooth(x)\n"},
                 {"pkg/use_package.py", "from pkg import smooth\n\ndef d(x):\n    return smooth(x)\n"}});
  EXPECT_TRUE(g.edge("pkg/use_alias.py", "a", "pkg/ops.py", "smooth"));
  EXPECT_TRUE(g.edge("pkg/use_relative.py", "b", "pkg/ops.py", "smooth"));
  EXPECT_TRUE(g.edge("pkg/use_relative.py", "c", "pkg/ops.py", "smooth"));
  // Through the package's `__init__`, which re-exports it.
  EXPECT_TRUE(g.edge("pkg/use_package.py", "d", "pkg/ops.py", "smooth"));
}

TEST(CallGraph, ResolvesSelfSuperClassesAndNestedFunctions) {
  const Graph g({{"pkg/__init__.py", ""},
                 {"pkg/base.py", "class Base:\n    def forward(self, x):\n        return self.step(x)\n\n"
                                 "    def step(self, x):\n        return x\n\n    def _helper(self):\n        pass\n"},
                 {"pkg/model.py", "from .base import Base\n\nclass Model(Base):\n    def __init__(self):\n        self.k = 1\n\n"
                                  "    def forward(self, x):\n        return super().forward(x)\n\n"
                                  "    def step(self, x):\n        return Model.scale(x)\n\n    @staticmethod\n    def scale(x):\n        return x\n\n"
                                  "def build():\n    def inner():\n        return Model()\n    return inner()\n"}});
  EXPECT_TRUE(g.edge("pkg/model.py", "Model.forward", "pkg/base.py", "Base.forward"));
  // `self.step()` in the base: its own, and the override of the subclass.
  EXPECT_TRUE(g.edge("pkg/base.py", "Base.forward", "pkg/base.py", "Base.step"));
  EXPECT_TRUE(g.edge("pkg/base.py", "Base.forward", "pkg/model.py", "Model.step"));
  // A class attribute, a class call, the class's public methods and its base.
  EXPECT_TRUE(g.edge("pkg/model.py", "Model.step", "pkg/model.py", "Model.scale"));
  EXPECT_TRUE(g.edge("pkg/model.py", "build.inner", "pkg/model.py", "Model"));
  EXPECT_TRUE(g.edge("pkg/model.py", "Model", "pkg/model.py", "Model.__init__", 'm'));
  EXPECT_TRUE(g.edge("pkg/model.py", "Model", "pkg/base.py", "Base", 'b'));
  EXPECT_FALSE(g.edge("pkg/base.py", "Base", "pkg/base.py", "Base._helper", 'm'));
  // A nested function, called by its parent.
  EXPECT_TRUE(g.edge("pkg/model.py", "build", "pkg/model.py", "build.inner"));
}

TEST(CallGraph, DecoratorsThatRegisterAndUnresolvedCalls) {
  const Graph g({{"pkg/__init__.py", ""},
                 {"pkg/ops.py", "import torch\nREGISTRY = {}\n\n@register('cuda')\ndef _cuda_op(x):\n    return x\n\n"
                                "@torch.no_grad()\ndef _plain(x):\n    return x\n\nclass Runner:\n    def launch(self):\n        pass\n\n"
                                "def go(obj, x):\n    obj.launch()\n    unknown_helper(x)\n    torch.nn.functional.relu(x)\n"}});
  const auto& functions = g.code(1).functions;
  ASSERT_EQ(functions.size(), 4u);
  EXPECT_TRUE(functions[0].registered);
  EXPECT_FALSE(functions[1].registered);
  // `obj.launch()` on an object of unknown class goes to the methods of that name, no further;
  // `unknown_helper()` and a function of torch go nowhere.
  EXPECT_TRUE(g.edge("pkg/ops.py", "go", "", ".launch", 'u'));
  EXPECT_FALSE(g.edge("pkg/ops.py", "go", "", ".relu", 'u'));
  EXPECT_GE(g.graph().unresolved_calls(), 2u);
}

TEST(MacPath, CallSiteConditionsUnderMacAssumptions) {
  const Graph g({{"pkg/__init__.py", "from .api import smooth, attend, norm, pick, guard, short\n"},
                 {"pkg/api.py",
                  "import torch\n\n"
                  "def smooth(x):\n    if x.is_cuda:\n        return _cuda(x)\n    else:\n        return _cpu(x)\n\n"
                  "def attend(x, use_flash=False, exact=True):\n    if use_flash:\n        _flash(x)\n    if exact:\n        _exact(x)\n    if x.device.type == 'mps':\n        _mps(x)\n\n"
                  "def norm(x):\n    try:\n        return _fused(x)\n    except Exception:\n        return _ref(x)\n\n"
                  "def pick(x):\n    fn = _cuda2 if torch.cuda.is_available() else _cpu2\n    return fn(x)\n\n"
                  "def guard(x):\n    if not torch.cuda.is_available():\n        return _cpu3(x)\n    _after(x)\n\n"
                  "def short(x, mode=None):\n    x.shape and _maybe(x)\n    mode or _unknown_default(x)\n\n"
                  "def _cuda(x): pass\ndef _cpu(x): pass\ndef _flash(x): pass\ndef _exact(x): pass\ndef _mps(x): pass\n"
                  "def _fused(x): pass\ndef _ref(x): pass\ndef _cuda2(x): pass\ndef _cpu2(x): pass\ndef _cpu3(x): pass\n"
                  "def _after(x): pass\ndef _maybe(x): pass\ndef _unknown_default(x): pass\ndef _never(x): pass\n"}});
  const auto status = [&](const char* name) { return g.at("pkg/api.py", name).status; };
  EXPECT_EQ(status("smooth"), MacStatus::on_default);
  EXPECT_EQ(status("_cuda"), MacStatus::not_on_mac);
  EXPECT_EQ(status("_cpu"), MacStatus::on_default);
  EXPECT_EQ(status("_flash"), MacStatus::optional_off);
  EXPECT_EQ(status("_exact"), MacStatus::on_default);
  EXPECT_EQ(status("_mps"), MacStatus::on_default);
  EXPECT_EQ(status("_fused"), MacStatus::not_on_mac);
  EXPECT_EQ(status("_ref"), MacStatus::on_default);
  EXPECT_EQ(status("_cuda2"), MacStatus::not_on_mac);
  EXPECT_EQ(status("_cpu2"), MacStatus::on_default);
  EXPECT_EQ(status("_cpu3"), MacStatus::on_default);
  EXPECT_EQ(status("_after"), MacStatus::not_on_mac);
  EXPECT_EQ(status("_maybe"), MacStatus::optional);
  // `mode or f()`: f runs when mode is falsy, and its default is None.
  EXPECT_EQ(status("_unknown_default"), MacStatus::on_default);
  EXPECT_EQ(status("_never"), MacStatus::unreached);
  const MacReach cuda = g.at("pkg/api.py", "_cuda");
  EXPECT_NE(cuda.chain.find("smooth"), std::string::npos) << cuda.chain;
  EXPECT_NE(cuda.deciding.find("x.is_cuda"), std::string::npos) << cuda.deciding;
  EXPECT_NE(g.at("pkg/api.py", "_flash").deciding.find("off by default"), std::string::npos);
}

TEST(MacPath, ReRaisingHandlerAndOptionOnByDefaultAreTaken) {
  const Graph g({{"pkg/__init__.py", "from .api import norm, attend\n"},
                 {"pkg/api.py",
                  "def norm(x):\n    try:\n        return _fused(x)\n    except Exception:\n        print('failed')\n        raise\n\n"
                  "def attend(x, use_flash=True):\n    if use_flash:\n        _flash(x)\n\n"
                  "def _fused(x): pass\ndef _flash(x): pass\n"}});
  EXPECT_EQ(g.at("pkg/api.py", "_fused").status, MacStatus::on_default);
  EXPECT_EQ(g.at("pkg/api.py", "_flash").status, MacStatus::on_default);
}

TEST(MacPath, ConditionsInsideTheFindingsOwnFunction) {
  const std::string api =
      "import os\nimport torch\nimport torch.distributed as dist\n\n"
      "def a(x):\n    if torch.cuda.is_available():\n        site_a(x)\n    site_a_after(x)\n\n"
      "def b(x):\n    if not dist.is_initialized():\n        return\n    site_b(x)\n\n"
      "def c(data):\n    world_size = dist.get_world_size()\n    if world_size == 1:\n        return [data]\n    site_c(data)\n\n"
      "def d(args):\n    if \"RANK\" not in os.environ and \"SLURM_PROCID\" not in os.environ:\n"
      "        args.distributed = False\n        return\n    site_d(args)\n\n"
      "def e(x):\n    if x.device.type == \"mps\":\n        y = x\n    else:\n        site_e(x)\n\n"
      "def f(args):\n    if \"RANK\" in os.environ:\n        args.rank = 0\n    elif \"SLURM_PROCID\" in os.environ:\n"
      "        args.rank = 1\n    else:\n        return\n    site_f(args)\n\n"
      "def g(x):\n    if x.is_cuda:\n        inner = lambda: site_g(x)\n    return x\n";
  const Graph g({{"pkg/__init__.py", "from .api import a, b, c, d, e, f, g\n"}, {"pkg/api.py", api}});
  for (const char* site : {"site_a(", "site_b(", "site_c(", "site_d(", "site_e(", "site_f(", "site_g("})
    EXPECT_EQ(g.site("pkg/api.py", site).status, MacStatus::not_on_mac) << site;
  EXPECT_EQ(g.site("pkg/api.py", "site_a_after(").status, MacStatus::on_default);
  // Named by the deciding condition, after the chain that reaches the function.
  const MacReach d = g.site("pkg/api.py", "site_d(");
  EXPECT_NE(d.deciding.find("\"RANK\" not in os.environ"), std::string::npos) << d.deciding;
  EXPECT_NE(d.chain.find("pkg/api.py:"), std::string::npos) << d.chain;
  EXPECT_NE(g.site("pkg/api.py", "site_c(").deciding.find("world_size == 1"), std::string::npos);
  EXPECT_NE(g.site("pkg/api.py", "site_f(").deciding.find("SLURM_PROCID"), std::string::npos);
}

TEST(MacPath, EarlyReturnsAMacDoesNotTakeLeaveTheSiteOnItsPath) {
  const std::string api =
      "import os\nimport torch\nimport torch.distributed as dist\n\n"
      "def t1(x):\n    if dist.is_initialized():\n        return\n    trap_1(x)\n\n"
      "def t2(x):\n    if torch.cuda.is_available():\n        return x\n    trap_2(x)\n\n"
      "def t3(x):\n    if \"RANK\" in os.environ:\n        return\n    trap_3(x)\n\n"
      "def t4(data, n):\n    if n == 1:\n        return [data]\n    trap_4(data)\n\n"
      "def t5(x, use_fast=False):\n    if use_fast:\n        trap_5(x)\n\n"
      "def t6(x):\n    try:\n        trap_6(x)\n    except Exception:\n        pass\n\n"
      "def t7(x):\n    if x.device.type == \"mps\":\n        trap_7(x)\n    else:\n        return x\n\n"
      "def t8(args):\n    if \"RANK\" in os.environ:\n        return\n    else:\n        args.rank = 0\n    trap_8(args)\n";
  const Graph g({{"pkg/__init__.py", "from .api import t1, t2, t3, t4, t5, t6, t7, t8\n"}, {"pkg/api.py", api}});
  // `n == 1` tests another number than the world size; an option off by default at the site
  // stays the front end's to judge, and a `try` that falls back runs its body on a Mac.
  for (const char* site : {"trap_1(", "trap_2(", "trap_3(", "trap_4(", "trap_5(", "trap_6(", "trap_7(", "trap_8("})
    EXPECT_EQ(g.site("pkg/api.py", site).status, MacStatus::on_default) << site;
}

TEST(MacPath, DispatchReachesOnlyClassesWithInstances) {
  const std::string accel =
      "import torch\n\n"
      "class _Base:\n    def setup(self, x):\n        pass\n\n    def run(self, x):\n        self.step(x)\n\n"
      "    def step(self, x):\n        pass\n\n"
      "class _CudaAccel(_Base):\n    def setup(self, x):\n        cuda_setup(x)\n\n    def step(self, x):\n        cuda_step(x)\n\n"
      "class _Guarded(_Base):\n    def setup(self, x):\n        guarded_setup(x)\n\n"
      "class _Made(_Base):\n    def setup(self, x):\n        made_setup(x)\n\n"
      "class _Child(_Made):\n    pass\n\n"
      "def cuda_setup(x): pass\ndef cuda_step(x): pass\ndef guarded_setup(x): pass\ndef made_setup(x): pass\n";
  const std::string run =
      "import torch\nfrom .accel import _Base, _CudaAccel, _Guarded, _Made\n\n"
      "def train(x, acc):\n    if isinstance(acc, _CudaAccel):\n        print('cuda')\n"
      "    if torch.cuda.is_available():\n        g = _Guarded()\n    m = _Made()\n    acc.setup(x)\n    m.run(x)\n";
  const Graph g({{"pkg/__init__.py", "from .run import train\n"}, {"pkg/accel.py", accel}, {"pkg/run.py", run}});
  // A class statement names its base; a type test names a class: neither makes an instance.
  EXPECT_FALSE(g.edge("pkg/accel.py", "<module>", "pkg/accel.py", "_Base", 'v'));
  EXPECT_FALSE(g.edge("pkg/run.py", "train", "pkg/accel.py", "_CudaAccel", 'v'));
  // `acc.setup()` on an object of unknown class: only the classes made on the path.
  EXPECT_EQ(g.at("pkg/accel.py", "_CudaAccel.setup").status, MacStatus::unreached);
  EXPECT_EQ(g.at("pkg/accel.py", "cuda_setup").status, MacStatus::unreached);
  EXPECT_EQ(g.at("pkg/accel.py", "_Guarded.setup").status, MacStatus::not_on_mac);
  // The trap: a class made unconditionally, and the base its subclass's instance is one of.
  EXPECT_EQ(g.at("pkg/accel.py", "_Made.setup").status, MacStatus::on_default);
  EXPECT_EQ(g.at("pkg/accel.py", "made_setup").status, MacStatus::on_default);
  EXPECT_EQ(g.at("pkg/accel.py", "_Base.setup").status, MacStatus::on_default);
  // `self.step()` in the base reaches its own and, only with an instance, a subclass's override.
  EXPECT_EQ(g.at("pkg/accel.py", "_Base.step").status, MacStatus::on_default);
  EXPECT_EQ(g.at("pkg/accel.py", "cuda_step").status, MacStatus::unreached);
  // A constructor runs for every subclass's instance: its subclasses' files.
  EXPECT_EQ(g.graph().files_of_subclasses_constructing("pkg/accel.py", 4), std::vector<std::string>{});
}

TEST(CallGraph, ATupleOfClassesThatOnlyTypeTestsReadMakesNoInstance) {
  const std::string classes = "class A:\n    pass\n\nclass B:\n    pass\n\nclass C:\n    pass\n";
  const std::string use =
      "from .classes import A, B, C\n\n"
      "KNOWN = [A, B]\n\n"
      "def check(x):\n    if not isinstance(x, tuple(KNOWN)):\n        raise TypeError('no')\n\n"
      "def describe(x):\n    kinds = (A, C)\n    if isinstance(x, kinds):\n"
      "        return ', '.join(k.__name__ for k in kinds)\n\n"
      "def listed(x):\n    kinds = (A, B)\n    return issubclass(x, kinds), kinds\n\n"
      "def made(x):\n    kinds = (B, C)\n    if isinstance(x, kinds):\n        return [k() for k in kinds]\n\n"
      "def renamed(x):\n    other = (C,)\n    other = 1\n    return isinstance(x, (C,))\n";
  const Graph g({{"pkg/__init__.py", "from .use import check\n"}, {"pkg/classes.py", classes}, {"pkg/use.py", use}});
  // Read only by type tests (also through `tuple(...)`, and a comprehension of their names).
  EXPECT_FALSE(g.edge("pkg/use.py", "<module>", "pkg/classes.py", "A", 'v'));
  EXPECT_FALSE(g.edge("pkg/use.py", "describe", "pkg/classes.py", "C", 'v'));
  // Any other use keeps the names as values: returned, made, or the name bound again.
  EXPECT_TRUE(g.edge("pkg/use.py", "listed", "pkg/classes.py", "B", 'v'));
  EXPECT_TRUE(g.edge("pkg/use.py", "made", "pkg/classes.py", "C", 'v'));
  EXPECT_TRUE(g.edge("pkg/use.py", "renamed", "pkg/classes.py", "C", 'v'));
}

TEST(MacPath, CodeThatRequiresAPackageAMacCannotInstallIsAFeature) {
  const std::string precision =
      "from .imports import RequirementCache\n\n"
      "_TE_AVAILABLE = RequirementCache(\"transformer_engine>=1.0\")\n"
      "_EINOPS_AVAILABLE = RequirementCache(\"einops\")\n\n"
      "class Fp8Precision:\n    def __init__(self):\n        if not _TE_AVAILABLE:\n            raise ModuleNotFoundError('te')\n"
      "        self.recipe = make_recipe()\n\n    def forward_context(self):\n        return te_context()\n\n"
      "class Fp8Child(Fp8Precision):\n    pass\n\n"
      "class EinopsPrecision:\n    def __init__(self):\n        if not _EINOPS_AVAILABLE:\n            raise ModuleNotFoundError('einops')\n\n"
      "    def forward_context(self):\n        return einops_context()\n\n"
      "def make_recipe(): pass\ndef te_context(): pass\ndef einops_context(): pass\n\n"
      "def export_trt(model):\n    if not importlib.util.find_spec(\"torch_tensorrt\"):\n        raise ModuleNotFoundError('trt')\n"
      "    return trt_compile(model)\n\ndef trt_compile(model): pass\n";
  const std::string trainer =
      "from .precision import Fp8Precision, Fp8Child, EinopsPrecision\n\n"
      "ALIASES = ((\"fp8\", Fp8Child),)\n\n"
      "class Trainer:\n    def __init__(self, precision='32'):\n        self._flag = precision\n"
      "        if self._flag == 'fp8':\n            self.precision = Fp8Precision()\n"
      "        self.other = EinopsPrecision()\n";
  const Files files{{"pkg/__init__.py", "from .trainer import Trainer\nfrom .precision import Fp8Precision, export_trt\n"},
                    {"pkg/imports.py", "class RequirementCache:\n    pass\n"},
                    {"pkg/precision.py", precision},
                    {"pkg/trainer.py", trainer}};
  const std::set<std::string> missing{"transformer_engine", "torch_tensorrt"};
  const Graph g(files, &missing);
  // Made only on a feature branch, named in a registry, exported: a feature for machines that
  // can install the package; its methods with it.
  EXPECT_EQ(g.at("pkg/precision.py", "Fp8Precision.__init__").status, MacStatus::optional_off);
  EXPECT_EQ(g.at("pkg/precision.py", "make_recipe").status, MacStatus::optional_off);
  EXPECT_EQ(g.at("pkg/precision.py", "te_context").status, MacStatus::optional_off);
  EXPECT_EQ(g.at("pkg/precision.py", "trt_compile").status, MacStatus::optional_off);
  EXPECT_NE(g.at("pkg/precision.py", "Fp8Precision.__init__").deciding.find("transformer_engine"), std::string::npos);
  // The trap: a package a Mac can install is tested like any other, and the code runs.
  EXPECT_EQ(g.at("pkg/precision.py", "einops_context").status, MacStatus::on_default);
  // The same code with no package known to be missing: the export and the registry reach it.
  const Graph unknown(files);
  EXPECT_EQ(unknown.at("pkg/precision.py", "make_recipe").status, MacStatus::on_default);
  EXPECT_EQ(unknown.at("pkg/precision.py", "trt_compile").status, MacStatus::on_default);
}

TEST(MacPath, CodeThatRequiresAMissingPackageOnTheDefaultPathStaysThere) {
  // The trap of the test above: the default run makes the object, so a Mac fails there.
  const std::string precision =
      "_TE_AVAILABLE = RequirementCache(\"transformer_engine\")\n\n"
      "class Fp8Precision:\n    def __init__(self):\n        if not _TE_AVAILABLE:\n            raise ModuleNotFoundError('te')\n"
      "        self.recipe = make_recipe()\n\ndef make_recipe(): pass\n";
  const std::string trainer =
      "from .precision import Fp8Precision\n\n"
      "class Trainer:\n    def __init__(self, precision='fp8'):\n        if precision == 'fp8':\n"
      "            self.precision = Fp8Precision()\n\n"
      "    def fit(self, model):\n        model.export_trt()\n";
  const std::string model =
      "_TRT = RequirementCache(\"torch_tensorrt\")\n\n"
      "class Model:\n    def export_trt(self):\n        if not _TRT:\n            raise ModuleNotFoundError('trt')\n"
      "        trt_compile(self)\n\ndef trt_compile(m): pass\n";
  const std::set<std::string> missing{"transformer_engine", "torch_tensorrt"};
  const Graph g({{"pkg/__init__.py", "from .trainer import Trainer\nfrom .model import Model\n"},
                 {"pkg/precision.py", precision},
                 {"pkg/trainer.py", trainer},
                 {"pkg/model.py", model}},
                &missing);
  EXPECT_EQ(g.at("pkg/precision.py", "make_recipe").status, MacStatus::on_default);
  // A call of such a method on the path, through an object of unknown class, is no user's choice.
  EXPECT_EQ(g.at("pkg/model.py", "trt_compile").status, MacStatus::on_default);
}

TEST(MacPath, ADeviceFamilysCudaMemberIsACudaDevicesChoice) {
  const Graph g(Files{
        {"pkg/__init__.py", "from .acc import Accelerator, CUDAAccelerator, MPSAccelerator, CudaHelper\nfrom .run import train\n"},
        {"pkg/acc.py",
         "class Accelerator:\n    def setup(self, d):\n        raise NotImplementedError\n\n"
         "class CUDAAccelerator(Accelerator):\n    def setup(self, d):\n        cuda_setup(d)\n\n"
         "class MPSAccelerator(Accelerator):\n    def setup(self, d):\n        mps_setup(d)\n\n"
         "class CudaHelper:\n    def setup(self, d):\n        helper_setup(d)\n\n"
         "def cuda_setup(d): pass\ndef helper_setup(d): pass\ndef mps_setup(d): pass\n"},
        {"pkg/run.py",
         "from .acc import CUDAAccelerator, MPSAccelerator\n\n"
         "TABLE = {\"cuda\": CUDAAccelerator, \"mps\": MPSAccelerator}\n\n"
         "def train(flag='auto'):\n    if flag == 'cuda':\n        acc = CUDAAccelerator()\n    acc = TABLE[flag]()\n"}});
  // Exported, in a table, made on an undecided branch: a CUDA device's choice.
  EXPECT_EQ(g.at("pkg/acc.py", "cuda_setup").status, MacStatus::not_on_mac);
  EXPECT_NE(g.at("pkg/acc.py", "cuda_setup").chain.find("MPSAccelerator"), std::string::npos);
  EXPECT_EQ(g.at("pkg/acc.py", "mps_setup").status, MacStatus::on_default);
  // A CUDA name with no MPS sibling of the same base is no family member.
  EXPECT_EQ(g.at("pkg/acc.py", "helper_setup").status, MacStatus::on_default);
  // The trap, an MPS sibling that only raises, needs the stub evidence of a whole scan:
  // tests/model_repos/device-family-mps-stub-partial.
}

TEST(MacPath, APackagesMemberOfAClassFamilyIsForMachinesThatHaveIt) {
  const std::set<std::string> missing{"apex", "triton"};
  const Graph g(Files{
        {"pkg/__init__.py", "from .scalers import ApexScaler, NativeScaler, ApexOnly, TritonKernel, ApexKernel\n"},
        {"pkg/scalers.py",
         "class ApexScaler:\n    def __call__(self, loss):\n        apex_step(loss)\n\n"
         "class NativeScaler:\n    def __call__(self, loss):\n        native_step(loss)\n\n"
         "class ApexOnly:\n    def run(self):\n        lone_step()\n\n"
         "class TritonKernel:\n    def run(self):\n        triton_step()\n\n"
         "class ApexKernel:\n    def run(self):\n        apex_kernel_step()\n\n"
         "def apex_step(x): pass\ndef native_step(x): pass\ndef lone_step(): pass\n"
         "def triton_step(): pass\ndef apex_kernel_step(): pass\n"}},
      &missing);
  // `ApexScaler` beside `NativeScaler`, both exported: a Mac uses the native one.
  EXPECT_EQ(g.at("pkg/scalers.py", "apex_step").status, MacStatus::optional_off);
  EXPECT_NE(g.at("pkg/scalers.py", "apex_step").chain.find("NativeScaler"), std::string::npos);
  EXPECT_EQ(g.at("pkg/scalers.py", "native_step").status, MacStatus::on_default);
  // The traps: a package's class with no sibling of its family, and a family whose every member
  // is named for a missing package, leave a Mac nothing else to use.
  EXPECT_EQ(g.at("pkg/scalers.py", "lone_step").status, MacStatus::on_default);
  EXPECT_EQ(g.at("pkg/scalers.py", "triton_step").status, MacStatus::on_default);
  EXPECT_EQ(g.at("pkg/scalers.py", "apex_kernel_step").status, MacStatus::on_default);
}

TEST(CallGraph, AConstructorReachesTheFilesOfItsSubclasses) {
  const Graph g({{"pkg/__init__.py", ""},
                 {"pkg/base.py", "class Base:\n    def __init__(self):\n        self.k = 1\n\n    def export(self):\n        pass\n"},
                 {"pkg/a.py", "from .base import Base\n\nclass A(Base):\n    pass\n"},
                 {"pkg/b.py", "from .a import A\n\nclass B(A):\n    def __init__(self):\n        super().__init__()\n"}});
  EXPECT_EQ(g.graph().files_of_subclasses_constructing("pkg/base.py", 3), (std::vector<std::string>{"pkg/a.py", "pkg/b.py"}));
  // The trap: a method only a caller runs, and a class with no subclass.
  EXPECT_TRUE(g.graph().files_of_subclasses_constructing("pkg/base.py", 6).empty());
  EXPECT_TRUE(g.graph().files_of_subclasses_constructing("pkg/b.py", 5).empty());
}

}  // namespace
}  // namespace mpsready::testing
