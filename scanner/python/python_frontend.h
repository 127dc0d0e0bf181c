#pragma once
// The Python front end: .py/.pyi files and notebooks' code cells, with the bundled Python rules.
#include <memory>

#include "engine/frontend.h"
#include "engine/prefilter.h"
#include "python/python_analyzer.h"
#include "python/python_program.h"

namespace mpsready {

class PythonFrontend final : public Frontend {
 public:
  explicit PythonFrontend(const RuleSet& rules, AnalysisOptions options = {});
  bool wants(std::string_view path) const override;
  std::unique_ptr<FrontendWorker> make_worker() const override;

  const PythonProgram& program() const { return program_; }
  const NeedleFilter& filter() const { return filter_; }
  const AnalysisOptions& options() const { return options_; }

 private:
  PythonProgram program_;
  NeedleFilter filter_;
  AnalysisOptions options_;
};

// Imports found line by line, for files no rule needed to parse: enough to link a module to the
// files that import it. An indented import is marked `guarded` until resolve_lexical_contexts
// reads its context (or the file is parsed).
std::vector<ImportFact> scan_imports_lexically(const std::string& path, std::string_view text);

}  // namespace mpsready
