#pragma once
// One parsed Python file and everything the matchers share about it, built in one pass over the
// tree: imports, call sites, name references and guarded regions.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <tree_sitter/api.h>

#include "python/guard_map.h"
#include "python/import_map.h"
#include "python/star_imports.h"
#include "python/ts_python.h"

namespace mpsready {

struct CallSite {
  TSNode node;
  TSNode function;
  TSNode arguments;         // argument_list or generator_expression
  std::string callee;       // resolved qualified name, "" if not resolved
  std::string_view method;  // last name of the callee (`cuda` in `x.cuda()`)
};

struct NameRef {
  TSNode node;               // identifier or longest attribute chain
  std::string name;          // resolved qualified name (never empty)
  bool is_call_function = false;
  bool is_assign_target = false;
};

// The body of `if <option>:` for an option on by default (opt_in.h): the default path runs it,
// but a caller can switch it off.
struct OptionBranch {
  uint32_t start = 0, end = 0;  // byte span of the body
  std::string option;           // `double_precision`
};

// Whether a `try` statement has a handler that catches import errors (`ImportError`,
// `ModuleNotFoundError`, `Exception`, a bare `except`) and does more than re-raise: an import
// that fails in its body does not stop the module.
bool catches_import_failure(std::string_view source, TSNode try_statement);

class PythonFile {
 public:
  // `source` and `tree` must outlive this object. `star` holds the names the file's local star
  // imports bind (star_imports.h), when the caller read them.
  PythonFile(std::string_view source, TSTree* tree, const StarBindings* star = nullptr);

  std::string_view source() const { return source_; }
  TSNode root() const { return root_; }
  std::string_view text(TSNode node) const { return node_text(source_, node); }

  const ImportMap& imports() const { return imports_; }
  const std::vector<CallSite>& calls() const { return calls_; }
  const std::vector<NameRef>& refs() const { return refs_; }
  const GuardMap& guards() const { return guards_; }
  // The regions only a run that chose CUDA takes: a distributed launch (`if local_rank != -1:`),
  // a CUDA device the user asked for (`if args.device == "cuda":`), the branches an MPS-aware
  // `if`/`elif` leaves to other devices. A CUDA requirement there is that choice's, which a Mac's
  // run never makes.
  const GuardMap& choice_guards() const { return choice_guards_; }
  // The CUDA branches of `if`/`elif` chains that also have a branch for MPS: each device has its
  // own code there, so a CUDA call in such a branch is device-agnostic code's CUDA half.
  const GuardMap& device_branches() const { return device_branches_; }
  const std::vector<OptionBranch>& opt_out_branches() const { return opt_out_branches_; }
  // The option of the innermost opt-out branch around [start, end), or nullptr.
  const OptionBranch* opt_out_branch(uint32_t start, uint32_t end) const;

  std::string resolve(TSNode node) const { return imports_.resolve(source_, node); }
  CudaCheck cuda_check(TSNode expr) const {
    return CudaCheckClassifier(source_, imports_, flags_).classify(expr);
  }
  // Whether the file sets `name` to a constant beside an import fallback (`HAS_APEX = False` in
  // `except ImportError:`) or assigns it a CUDA test: a flag whose value says what is installed.
  bool is_availability_flag(std::string_view name) const { return flags_.count(std::string(name)) > 0; }
  // Deepest nesting of the syntax tree (real code stays below a few hundred).
  size_t max_depth() const { return max_depth_; }
  // First ERROR or MISSING node, if the file has a syntax error.
  std::optional<TSNode> first_error() const { return first_error_; }

 private:
  std::string_view source_;
  TSNode root_;
  ImportMap imports_;
  std::vector<CallSite> calls_;
  std::vector<NameRef> refs_;
  GuardMap guards_;
  GuardMap choice_guards_;
  GuardMap device_branches_;
  std::vector<OptionBranch> opt_out_branches_;
  std::unordered_set<std::string> flags_;  // availability flags set beside import fallbacks
  std::optional<TSNode> first_error_;
  size_t max_depth_ = 0;
};

}  // namespace mpsready
