#pragma once
// Facts front ends record for repository passes: what a file imports, which extensions it
// builds, which packages it declares. Kept apart from findings: a fact is not a problem.
#include <string>
#include <vector>

namespace mpsready {

// An import in Python code (a notebook's too).
struct ImportFact {
  std::string path;
  int line = 0;
  int cell = 0;
  std::string module;  // the qualified name imported (`flash_attn.bert_padding`)
  bool guarded = false;  // inside try/except ImportError or behind a CUDA check
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
};

// A compiled extension declared in Python: setup.py's CUDAExtension/CppExtension, or a JIT
// `torch.utils.cpp_extension.load(...)` / `load_inline(...)`.
struct ExtensionFact {
  std::string path;  // the declaring file
  int line = 0;
  std::string name;  // the module name it builds (`fused_rmsnorm_cuda`, `pkg._C`)
  bool cuda = false;  // CUDAExtension, or CUDA sources
  std::vector<std::string> sources;  // repository-relative paths, where they are literal
};

// What a C++/CUDA file offers an extension built from it.
struct CppUnitFact {
  std::string path;
  bool cuda_code = false;         // kernels, launches or CUDA calls
  bool cpu_registration = false;  // TORCH_LIBRARY_IMPL(ns, CPU, m) or a CPU dispatch
};

struct RepoFacts {
  std::vector<ImportFact> imports;
  std::vector<std::string> python_files;  // every Python file scanned, relative paths
  std::vector<DependencyFact> dependencies;
  std::vector<ExtensionFact> extensions;
  std::vector<CppUnitFact> cpp_units;

  void append(RepoFacts&& other) {
    for (auto& i : other.imports) imports.push_back(std::move(i));
    for (auto& p : other.python_files) python_files.push_back(std::move(p));
    for (auto& d : other.dependencies) dependencies.push_back(std::move(d));
    for (auto& e : other.extensions) extensions.push_back(std::move(e));
    for (auto& u : other.cpp_units) cpp_units.push_back(std::move(u));
  }
};

}  // namespace mpsready
