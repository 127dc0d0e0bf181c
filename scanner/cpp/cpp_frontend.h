#pragma once
// The C++/CUDA front end: .cu .cuh .cpp .cc .cxx .h .hpp files, with the bundled C++ rules.
// A file none of whose rules' needles occur is never handed to Clang.
#include <memory>
#include <mutex>

#include "engine/frontend.h"
#include "engine/prefilter.h"
#include "matchers/cpp_matchers.h"
#include "rules/rule_set.h"

namespace mpsready {

class CompileCommands;

constexpr double kDefaultClangTimeLimit = 10.0;  // seconds

struct CompiledCppRule {
  const Rule* rule;
  std::vector<std::unique_ptr<CppMatcher>> matchers;
};

class CppFrontend final : public Frontend {
 public:
  // `compile_commands`: a compile_commands.json to use instead of looking at the root.
  // `clang_time_limit_s`: Clang's time per file (checked between top-level declarations); past
  // it the file keeps its token-level findings and is listed in `errors`. Negative: no limit.
  explicit CppFrontend(const RuleSet& rules, std::string compile_commands = "",
                       double clang_time_limit_s = kDefaultClangTimeLimit);
  ~CppFrontend() override;
  bool wants(std::string_view path) const override;
  std::unique_ptr<FrontendWorker> make_worker() const override;
  void begin_scan(const std::filesystem::path& root, std::vector<FileNote>& errors) const override;

  const std::vector<CompiledCppRule>& rules() const { return rules_; }
  const NeedleFilter& filter() const { return filter_; }
  // Set by begin_scan, read-only while workers run.
  const CompileCommands* database() const { return database_.get(); }
  double clang_time_limit() const { return clang_time_limit_; }

 private:
  std::vector<CompiledCppRule> rules_;
  NeedleFilter filter_;
  std::string compile_commands_;
  double clang_time_limit_;
  mutable std::unique_ptr<CompileCommands> database_;
};

}  // namespace mpsready
