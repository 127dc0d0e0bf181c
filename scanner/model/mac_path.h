#pragma once
// Which code runs when the repository runs on a Mac, with `device="mps"` and every other option
// at its default: the call graph (call_graph.h) searched from the core's roots, each edge taking
// the conditions of its call site read under Mac assumptions — `torch.cuda.is_available()`,
// `x.is_cuda` and `device.type == "cuda"` false, MPS tests and `sys.platform == "darwin"` true,
// a device option `mps`, other options at their defaults (a parameter's, an argparse option's, a
// class field's). A test it cannot decide is an optional path named by what it depends on.
//
// Roots: the core's entry points and packages (the module bodies the model starts from), and its
// public API: top-level public functions and classes of core modules that nothing in the core
// calls, and functions a decorator may register for dispatch by name.
#include <cstdint>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

#include "core/package_test.h"
#include "model/call_graph.h"

namespace mpsready {

// Best first. `optional_off`: only behind an option whose default is off (`--fused-attn`,
// `use_flash=False`); `not_on_mac`: only behind conditions a Mac makes false (a CUDA check, a
// `try` whose handler falls back).
enum class MacStatus { on_default = 0, optional = 1, optional_off = 2, not_on_mac = 3, unreached = 4 };
std::string_view to_string(MacStatus status);

struct MacReach {
  MacStatus status = MacStatus::unreached;
  // `cli.py:3 main → train.py:12 run → model.py:40 Model.forward (only with `--fused-attn`) → …`
  std::string chain;
  std::string deciding;  // the condition that decides the status ("only if `x.is_cuda`"), "" when none
};

class MacPath {
 public:
  // `missing_packages`: packages that have no macOS build (normalized, core/package_test.h): a
  // test of whether one is installed is false on a Mac. Null: none known.
  MacPath(const RepoFacts& facts, const RepoModel& model, const CallGraph& graph,
          const std::set<std::string>* missing_packages = nullptr);
  // The status of the function around `line` of `path`; nullopt where the graph has no facts.
  std::optional<MacReach> at(const std::string& path, int line) const;
  // The status of a site, bytes [start, end) of `path`: its function's, unless the site's own conditions
  // within its function are ones a Mac makes false (`if torch.cuda.is_available():` around it,
  // an earlier `if not dist.is_initialized(): return`, the `else` of `if device.type == "mps":`):
  // then it is not on a Mac path, named by the deciding condition, however its function is
  // reached. Undecided conditions at the site leave the function's status as it is.
  std::optional<MacReach> at(const std::string& path, int line, uint32_t start, uint32_t end) const;
  // Where every condition around the site within its function is a test a Mac run with the
  // options at their defaults takes (`if has_bias:` in `def f(x, has_bias=True)`, `if not
  // torch.cuda.is_available():`): the innermost such test (`if `has_bias``); else "" (no
  // condition, or one that is false or undecided, or a `try` or handler among them).
  std::string taken_by_default(const std::string& path, uint32_t start, uint32_t end) const;
  // Whether `line` of `path` is a function (not module code).
  bool in_function(const std::string& path, int line) const;
  // An import at `line` of `path` in a `try` whose handler goes on, of a package a Mac cannot
  // install (`try: from apex import amp` / `except ImportError: amp = None`): on a Mac it fails
  // and is caught, and what it binds keeps the handler's value. It breaks where a name it binds
  // is used without a test of the name or the package (`if amp is not None:`, `if has_apex:`):
  // the best status among those uses, each its function's (or, in module code, its module
  // body's) status joined with the conditions around the use. Nullopt for any other import, or
  // one whose names nothing here uses untested on a reached path.
  std::optional<MacReach> caught_import(const std::string& path, int line) const;

 private:
  struct Level {
    int level = 0;
    std::string label;
  };
  Level edge_level(const CallEdge& edge) const;
  // `site`: the conditions around a finding itself, where a `try` that falls back is no
  // condition (the line runs; the assessment reads the fallback at the site).
  Level condition_level(int file, int condition, bool site = false) const;
  Level site_level(const std::string& path, uint32_t start, uint32_t end) const;
  // The file's index in RepoFacts::code (-1: none) and the innermost region around the site.
  std::pair<int, const CodeRegion*> inner_region(const std::string& path, uint32_t start, uint32_t end) const;
  // An option's default under Mac assumptions: 1 true, 0 false, 2 undecided.
  int option_value(int file, const CodeCondition& c) const;
  // Whether the test is a bare name that is a module's CUDA flag (CodeGraphFact::cuda_flags), its
  // own or one it imports, followed through at most a few re-exports.
  bool reads_cuda_flag(int file, const CodeCondition& c) const;
  // Where the test asks whether a package with no macOS build is installed — inline
  // (`not RequirementCache("transformer_engine")`) or through a module's flag bound to such a
  // test, its own or one it imports — that package; "" otherwise. `missing_when_true`: the test
  // holds when the package is missing (`not …`).
  std::string missing_package(int file, const CodeCondition& c, bool& missing_when_true) const;
  // The module flag `name` read in `file`, followed through at most a few re-exports: the file
  // and name that bind it.
  std::pair<int, std::string> flag_origin(int file, std::string name) const;
  // A function that raises at its top when a package with no macOS build is missing (`if not
  // _TE_AVAILABLE: raise ModuleNotFoundError(...)`): what it requires, as a reason; "" otherwise.
  std::string requirement_of(int file, const CodeFunction& fn) const;
  // A test under Mac assumptions, before the region's negation: 1 true, 0 false, 2 undecided;
  // `option`: decided by an option's default.
  int test_value(int file, const CodeCondition& c, bool& option) const;
  void search();
  std::string chain_of(size_t node) const;

  const RepoFacts& facts_;
  const RepoModel& model_;
  const CallGraph& graph_;
  std::map<std::string, std::vector<std::pair<int, const CodeOption*>>> options_;
  std::set<std::pair<int, std::string>> cuda_flags_;  // (file, name) of module CUDA flags
  std::map<std::pair<int, std::string>, std::string> package_flags_;  // (file, name) -> package
  // (file, condition) -> an inline test of a missing package (`not RequirementCache("apex")`).
  std::map<std::pair<int, int>, PackageTest> package_tests_;
  const std::set<std::string>* missing_packages_ = nullptr;
  // Per node: what a function requires that a Mac lacks (requirement_of); for a class, what its
  // `__init__` requires. "" for none.
  std::vector<std::string> requires_;
  // Per class node: for the CUDA member of a device family (`CUDAAccelerator` beside an
  // `MPSAccelerator` of the same repository base, whose methods are more than stubs), why a Mac
  // does not run it; "" for every other node.
  std::vector<std::string> cuda_member_;
  void find_device_families();
  // A family of classes that differ only in a leading name (`ApexScaler` and `NativeScaler`, one
  // repository base or, without one, one module): a member named for a package a Mac cannot
  // install is that package's backend, chosen only by a user who has it (requires_). A Mac uses
  // the sibling.
  void find_package_families();
  // The uses of the names that caught imports of missing packages bind (caught_import).
  void find_caught_import_uses();
  struct CaughtUse {
    size_t node = SIZE_MAX;  // the function that uses it, or the module body for module code
    int file = -1;
    int condition = -1;
    int line = 0;
  };
  std::map<std::pair<std::string, int>, std::vector<CaughtUse>> caught_uses_;  // (path, line) of the import
  // Classes gathered by their repository base, or by their module when they have none: the
  // siblings a family is made of, by (group, name).
  std::map<std::pair<size_t, std::string>, size_t> siblings_;
  std::vector<size_t> groups_of(size_t cls) const;
  std::map<std::string, int> file_of_path_;  // path -> index into RepoFacts::code  // name -> (file, option)
  std::vector<int> best_;
  std::vector<size_t> via_;  // the edge that gave the best level, SIZE_MAX for a root
  std::vector<std::string> label_;  // the deciding condition of the best path so far
};

}  // namespace mpsready
