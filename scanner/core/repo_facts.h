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

struct RepoFacts {
  std::vector<ImportFact> imports;
  std::vector<DependencyFact> dependencies;

  void append(RepoFacts&& other) {
    for (auto& i : other.imports) imports.push_back(std::move(i));
    for (auto& d : other.dependencies) dependencies.push_back(std::move(d));
  }
};

}  // namespace mpsready
