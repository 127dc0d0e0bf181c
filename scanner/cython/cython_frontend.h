#pragma once
// The Cython front end: `.pyx`, `.pxd` and `.pxi` files, which Cython compiles to C and a
// compiler builds into an extension module Python imports. Rules of language `cython` match
// calls (`cudaMalloc(...)`, `cuLaunchKernel(...)`), `cdef extern from "<header>"` blocks and
// `cimport`s; a `.pyx` file a rule flags is recorded as a CUDA extension named by its path, so
// the extension passes tie it to its importers.
#include <memory>
#include <string>
#include <vector>

#include "cpp/matchers/whole_match_regex.h"
#include "engine/frontend.h"
#include "engine/prefilter.h"
#include "rules/rule_set.h"

namespace mpsready {

struct CompiledCythonMatcher {
  enum class Kind { call, extern_header, cimport };
  Kind kind;
  std::vector<std::unique_ptr<WholeMatchRegex>> patterns;  // of the name, header or module
};

struct CompiledCythonRule {
  const Rule* rule;
  std::vector<CompiledCythonMatcher> matchers;
};

class CythonFrontend final : public Frontend {
 public:
  explicit CythonFrontend(const RuleSet& rules);
  bool wants(std::string_view path) const override;
  std::unique_ptr<FrontendWorker> make_worker() const override;

  const std::vector<CompiledCythonRule>& rules() const { return rules_; }
  const NeedleFilter& filter() const { return filter_; }

 private:
  std::vector<CompiledCythonRule> rules_;
  NeedleFilter filter_;
};

}  // namespace mpsready
