#pragma once
// Runs the compiled Python rules over one file (a .py file or a notebook's code cells) and turns
// raw matches into findings: guards, impacts, messages, positions, superseded duplicates.
#include <string>
#include <vector>

#include "core/finding.h"
#include "core/repo_facts.h"
#include "core/source_text.h"
#include "python/notebook_reader.h"
#include "python/python_program.h"
#include "python/star_imports.h"
#include "python/ts_python.h"

namespace mpsready {

struct AnalysisOptions {
  uint64_t parse_timeout_micros = 20'000'000;
};

struct FileAnalysis {
  std::vector<Finding> findings;
  std::vector<FileNote> errors;  // the file was analysed only in part
  std::vector<ImportFact> imports;
  std::vector<ExtensionFact> extensions;
  std::vector<CodeGraphFact> code;  // one for a Python file, none for a notebook
};

// How Python reads the file beyond its bytes. `code` is the text with its identifiers in NFKC form
// (identifier_nfkc.h), byte for byte as long as the text, or empty for the text itself; positions
// and snippets still come from the text. `star` is what the file's local star imports bind.
struct PythonReading {
  std::string_view code;
  const StarBindings* star = nullptr;
};

// `active[i]` says whether program.rules()[i] runs on this file (the prefilter's answer).
// `notebook` maps lines back to cells when the text came from a notebook.
FileAnalysis analyze_python(const SourceText& text, const std::string& path,
                            const PythonProgram& program, const std::vector<bool>& active,
                            PythonParser& parser, const AnalysisOptions& options,
                            const NotebookSource* notebook = nullptr, const PythonReading& reading = {});

// Drops a finding that lies inside a finding of a rule superseding it, and nested duplicates of
// one rule (keeping the outer one). Exposed for tests.
void merge_overlapping(std::vector<Finding>& findings, const PythonProgram& program);

}  // namespace mpsready
