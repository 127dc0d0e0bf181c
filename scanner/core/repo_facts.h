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

struct RepoFacts {
  std::vector<ImportFact> imports;

  void append(RepoFacts&& other) {
    for (auto& i : other.imports) imports.push_back(std::move(i));
  }
};

}  // namespace mpsready
