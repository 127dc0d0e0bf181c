#pragma once
// Facts front ends record for repository passes: what a file imports, which extensions it
// builds, which packages it declares. Kept apart from findings: a fact is not a problem.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mpsready {

// An import in Python code (a notebook's too).
struct ImportFact {
  std::string path;
  int line = 0;
  int cell = 0;
  std::string module;  // the qualified name imported (`flash_attn.bert_padding`); relative: after the dots
  bool guarded = false;  // inside try/except ImportError (with a working fallback) or behind a CUDA check
  int level = 0;         // leading dots of a relative import (`from ..a import b`: 2)
  // Inside a function or method body: it runs when that function is called, not at import.
  bool lazy = false;
  std::string function;  // the enclosing function, `Class.method` for a method ("" at module level)
  // Inside an `if`/`elif`/`else` branch whose condition is no CUDA check: a feature path
  // (`elif engine:`, `if args.export == "trt":`). The condition's text, shortened.
  std::string branch;
  bool in_main_block = false;  // under `if __name__ == "__main__":`: the script's, not the module's
  // In the body of a `try` whose handler catches import errors and goes on (whatever it then
  // does): a failed import there does not stop the module that holds it.
  bool caught = false;
};

// One Python file (not a notebook) as the repository model needs it.
struct ModuleFact {
  std::string path;
  // `if __name__ == "__main__":` block, lines [main_line, main_end_line]; 0 when none.
  int main_line = 0;
  int main_end_line = 0;
  // `raise NotImplementedError` on the branch without CUDA (`if x.is_cuda: … else: raise …`,
  // `if not x.is_cuda: raise …`): the lines. The code there needs CUDA whatever else it imports.
  std::vector<int> cuda_only_raises;
};

// Distributed set-up, read line by line from a Python file:
//   kind "init": `init_process_group(...)` that a public function (`initialize`, `__init__`,
//     `train`, any name without a leading `_`) always runs; `text`: its backend expression, through
//     one local assignment (`backend = BACKENDS[device]`); `name`: the function.
//   kind "mps-stub-table": a per-device table whose MPS entry is None or NotImplemented*
//     (`{"cuda": "nccl", "mps": None}`); `name`: the table.
//   kind "mps-stub-class": a class for MPS (`class MPS_Accelerator(...)`) whose methods only raise
//     NotImplementedError or return None / NotImplemented*; `name`: the class, `text`: its
//     methods, space-separated.
struct DistributedFact {
  std::string path;
  int line = 0;
  std::string kind;
  std::string name;
  std::string text;
};

// Something that says how the repository stands with MPS, with where it was seen.
// kind: "selects-mps" (code picks or handles the MPS device), "docs-mps" (documentation says it
// runs on MPS / Apple Silicon), "docs-requires-cuda" (documentation says CUDA or an NVIDIA GPU
// is required), "docs-linux-only" (a requirements entry lists Linux and no Mac), "ci-macos" (a CI job runs on macOS), "mps-kernel" (a C++ extension registers an operator's
// implementation for MPS), "mps-stub" (negative: a class or table entry for MPS that only raises
// or returns None; never MPS support).
struct EvidenceFact {
  std::string path;
  int line = 0;
  int cell = 0;
  std::string kind;
  std::string text;  // what was seen, shortened
};

// A package a manifest declares that a rule flagged, with the modules it provides, so a pass
// can tie it to the code that imports it.
struct DependencyFact {
  std::string path;
  int line = 0;
  int column = 0;
  std::string rule;                  // the finding it belongs to
  std::string package;               // as written (`flash-attn`)
  std::vector<std::string> modules;  // import names (`flash_attn`)
  bool limited = false;              // a marker or an optional extra keeps it off a Mac
  std::string extra;                 // the optional group (extra) it is listed in, "" when none
};

// A compiled extension declared in Python: setup.py's CUDAExtension/CppExtension, or a JIT
// `torch.utils.cpp_extension.load(...)` / `load_inline(...)`.
struct ExtensionFact {
  std::string path;  // the declaring file
  int line = 0;
  std::string name;  // the module name it builds (`fused_rmsnorm_cuda`, `pkg._C`)
  bool cuda = false;  // CUDAExtension, or CUDA sources
  std::vector<std::string> sources;  // repository-relative paths, where they are literal
  // A JIT build (`load`, `load_inline`) happens where it is called: its place in the code.
  bool jit = false;
  bool guarded = false;  // behind a CUDA check or with an import fallback
  bool lazy = false;     // inside a function
  std::string branch;    // on a feature branch
};

// An operator a C++ file exports to Python or registers with the dispatcher: pybind
// `m.def("name", &fn)`, `TORCH_LIBRARY` `m.def("name(Tensor x) -> Tensor", &fn)`, or
// `TORCH_LIBRARY_IMPL(ns, KEY, m)` `m.impl("name", &fn)`.
struct CppOpFact {
  int line = 0;
  std::string name;      // `nms` of `m.def("nms", ...)` or of the schema `ns::nms(Tensor x) -> Tensor`
  std::string function;  // the C++ function bound (`nms` of `&ops::nms`); "" for a lambda or none
  std::string key;       // the dispatch key of a TORCH_LIBRARY_IMPL block (`CPU`, `CUDA`); "" otherwise
  bool schema_only = false;  // a TORCH_LIBRARY `m.def` of a schema with no implementation
  bool cuda_only = false;    // compiled only with WITH_CUDA (inside `#ifdef WITH_CUDA`)
  bool lambda_cpu = true;    // a lambda's body reaches CPU code (meaningful when function is "")
};

// A function a C++ file defines, and whether its body reaches CPU code with WITH_CUDA undefined
// (false: its path without CUDA only raises: AT_ERROR, TORCH_CHECK(false, ...), throw).
struct CppFunctionFact {
  std::string name;
  bool cpu = true;
  // The registry key its body dispatches on at its own level: `nms_impl` of
  // `DISPATCH_DEVICE_IMPL(nms_impl, boxes, ...)`; "" for none. It reaches CPU code only where the
  // CPU build registers an implementation for that key.
  std::string dispatches;
  // The functions its body calls at its own level (not inside a nested `if` or loop), first ones
  // only: a wrapper reaches CPU code only if what it always calls does.
  std::vector<std::string> calls;
};

// One implementation registered per device in an extension's own registry:
// `REGISTER_DEVICE_IMPL(nms_impl, CPU, nms_cpu)` (any `REGISTER_…_IMPL(key, DEVICE, fn)` macro).
struct CppDeviceImplFact {
  int line = 0;
  std::string key;       // `nms_impl`
  std::string device;    // `CPU`, `CUDA`, `MPS`, …
  std::string function;  // `nms_cpu`
  bool cuda_only = false;  // compiled only with WITH_CUDA
};

// What a C++/CUDA file offers an extension built from it.
struct CppUnitFact {
  std::string path;
  bool cuda_code = false;         // kernels, launches or CUDA calls
  bool cpu_registration = false;  // TORCH_LIBRARY_IMPL(ns, CPU, m) or REGISTER_…_IMPL(key, CPU, fn)
  std::vector<CppOpFact> ops;
  std::vector<CppFunctionFact> functions;
  std::vector<CppDeviceImplFact> device_impls;
};

// A console or GUI script a manifest installs (`console_scripts`, `[project.scripts]`), or a
// command the root README tells users to run (`python tools/train.py`, `python -m pkg.cli`):
// the module or file it runs is an entry point of the core wherever it lives.
struct EntryPointFact {
  std::string path;    // the manifest or README
  int line = 0;
  std::string module;  // `pkg.cli` of `pkg.cli:main` or of `python -m pkg.cli`; "" for a file
  std::string script;  // `tools/train.py` of `python tools/train.py`, relative to the root
};

// One part of the package list a manifest declares (deps/package_list.h): kind `package`,
// `package-find`, `package-include`, `package-exclude` or `package-dir`, and its text; kind
// `package-requires`, the requirements it lists; kind `environment`, the environment a
// dependency file sets up, `container` (a Dockerfile, a compose file) or `native` (a manifest,
// a requirements file, a conda environment, a Pipfile).
struct PackageFact {
  std::string path;  // the manifest
  int line = 0;
  std::string kind;
  std::string text;
};


// The code of one Python file as the function-level call graph needs it (model/call_graph.h),
// recorded in one walk over its tree (python/code_graph_facts.h).
//
// A condition a site sits under, enclosing ones linked through `parent`: an `if`/`elif`/`else`
// test, a ternary's, the left side of `and`/`or`, the test of an earlier `if` that returned or
// raised, a `try` body whose handler falls back, an `except` handler.
struct CodeCondition {
  int parent = -1;      // index of the enclosing condition in the file's list; -1: none
  std::string text;     // the test, one line, shortened
  bool negated = false;  // the site runs when the test is false (`else`, after an early return, `or`)
  // 'i' a test (if, elif, ternary, and/or, early return); 't' a try body whose handler catches
  // the failure and goes on (no re-raise); 'x' an except handler.
  char kind = 'i';
  // The test read under Mac assumptions by the front end, before `negated`: 0 false, 1 true,
  // 2 undecided (CUDA checks are false, MPS checks and `sys.platform == "darwin"` true).
  int mac = 2;
  // Undecided tests of an option (`args.fused_attn`, `not self.use_flash`, `cfg.attn == "flash"`):
  // the option's last name, the literal compared with ("" for a truth test), and whether the
  // test is negated (`not x`, `!=`, `is None`).
  std::string option;
  std::string option_value;
  bool option_negated = false;
};

// A function or method defined in the file; `name` is qualified within the file (`Model.forward`,
// `outer.inner`). `cls`: the class it is a method of (qualified), "" for a function.
struct CodeFunction {
  std::string name;
  std::string cls;
  int line = 0;
  int end_line = 0;
  // A decorator that may register it somewhere (`@register("cuda")`), not merely wrap it.
  bool registered = false;
  // The tests of the `if …: raise` statements its body starts with, after its docstring
  // (indices into conditions, read as "the function fails when this holds"): what it requires
  // to run.
  std::vector<int> raise_tests;
};

struct CodeClass {
  std::string name;  // qualified within the file
  int line = 0;
  std::vector<std::string> bases;  // as written (`nn.Module`, `base.Backend`)
};

// A call, or a use of a name as a value (`fn = fast if x.is_cuda else slow`, a callback): an edge
// from the function it sits in to what `callee` names.
struct CodeCall {
  int caller = -1;      // index into functions; -1: the module's own code
  int line = 0;
  std::string callee;   // dotted text (`self.run`, `ops.smooth_cuda`, `super().forward`)
  int condition = -1;   // innermost condition, index into conditions
  bool value = false;   // a use as a value, not a call
  bool in_main_block = false;  // under `if __name__ == "__main__":`
};

// A name an import binds: `local` -> `target` (absolute, or relative with `level` leading dots).
struct CodeBinding {
  std::string local;
  std::string target;
  int level = 0;
  int line = 0;  // of the import statement
};

// An option's default, read from a parameter (`use_flash=False`), an argparse option
// (`add_argument("--fused-attn", action="store_true")`) or a class field (`use_flash: bool = False`).
// `choices`: the argparse choices as written, "" when none.
struct CodeOption {
  std::string name;
  std::string default_text;
  int line = 0;
  std::string choices;
};

// A stretch of code that runs only under a condition: the byte span [start, end) of a branch,
// an operand or the statements after an early return, and its innermost condition (its parents
// are the enclosing ones within the same function). A finding's own conditions are read from
// the innermost region around it.
struct CodeRegion {
  uint32_t start = 0;
  uint32_t end = 0;
  int condition = -1;
};

struct CodeGraphFact {
  std::string path;
  std::vector<CodeFunction> functions;
  std::vector<CodeClass> classes;
  std::vector<CodeCall> calls;
  std::vector<CodeCondition> conditions;
  std::vector<CodeBinding> bindings;
  std::vector<CodeOption> options;
  // Byte spans [start, end) of values a user can override: parameter defaults and argparse
  // `default=` values (a device there is a default, not a hard-coded device).
  std::vector<std::pair<uint32_t, uint32_t>> default_spans;
  // Byte spans of `try` bodies whose handler catches the failure and goes on without re-raising
  // (`try: ext.op(x) except Exception: warn(...); return reference(x)`).
  std::vector<std::pair<uint32_t, uint32_t>> fallback_spans;
  std::vector<CodeRegion> regions;
  // Names the module binds, once and unconditionally at its top, to a CUDA test
  // (`_SUPPORTS_FLEX_ATTENTION = torch.cuda.is_available() and ...`): false on a Mac wherever
  // they are read, in this module or one that imports them.
  std::vector<std::string> cuda_flags;
  // Names the module binds, once and unconditionally at its top, to a test of whether a package
  // is installed (`_TE_AVAILABLE = RequirementCache("transformer_engine")`): name -> the
  // package, normalized (core/package_test.h).
  std::vector<std::pair<std::string, std::string>> package_flags;
};

struct RepoFacts {
  std::vector<ImportFact> imports;
  std::vector<std::string> python_files;  // every Python file scanned, relative paths
  std::vector<DependencyFact> dependencies;
  std::vector<ExtensionFact> extensions;
  std::vector<CppUnitFact> cpp_units;
  std::vector<ModuleFact> modules;
  std::vector<EvidenceFact> evidence;
  std::vector<EntryPointFact> entry_points;
  std::vector<DistributedFact> distributed;
  std::vector<PackageFact> packages;
  std::vector<CodeGraphFact> code;

  void append(RepoFacts&& other) {
    for (auto& i : other.imports) imports.push_back(std::move(i));
    for (auto& p : other.python_files) python_files.push_back(std::move(p));
    for (auto& d : other.dependencies) dependencies.push_back(std::move(d));
    for (auto& e : other.extensions) extensions.push_back(std::move(e));
    for (auto& u : other.cpp_units) cpp_units.push_back(std::move(u));
    for (auto& m : other.modules) modules.push_back(std::move(m));
    for (auto& e : other.evidence) evidence.push_back(std::move(e));
    for (auto& e : other.entry_points) entry_points.push_back(std::move(e));
    for (auto& d : other.distributed) distributed.push_back(std::move(d));
    for (auto& p : other.packages) packages.push_back(std::move(p));
    for (auto& c : other.code) code.push_back(std::move(c));
  }
};

}  // namespace mpsready
