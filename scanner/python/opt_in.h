#pragma once
// Opt-in options: a condition that holds only when the user asks for a feature
// (`if use_amp:` for a parameter `use_amp=False`, `if self.double_precision:` for an `__init__`
// parameter defaulting to False, `if args.fp16:` for an argparse `store_true` flag). The default
// path does not take such a branch, so what it does is that feature's, not the core's.
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <tree_sitter/api.h>

namespace mpsready {

class OptInClassifier {
 public:
  // `defaults`: the file's default_parameter / typed_default_parameter nodes; `assignments`: its
  // assignment nodes (both collected by the file's one walk over the tree).
  OptInClassifier(std::string_view source, const std::vector<TSNode>& defaults, const std::vector<TSNode>& assignments);
  // Whether `condition` is true only when an option that is off by default is switched on.
  bool is_opt_in(TSNode condition) const;
  // The option a condition tests when it is a parameter that is on by default (`if use_double:`
  // after `use_double = self.double_precision` for `double_precision=True`): the default path
  // takes the branch, but a caller can switch it off. Empty when it is no such option.
  std::string opt_out_option(TSNode condition) const;

 private:
  bool is_option_name(TSNode node) const;
  // The option's name when `node` names one (`use_amp`, `self.use_amp`, `args.fp16`), else "".
  std::string option_named(TSNode node) const;
  std::string_view source_;
  std::unordered_set<std::string> off_by_default_;  // parameters and argparse flags off by default
  std::unordered_set<std::string> on_by_default_;   // parameters that default to True
  // Locals copied from an option (`use_double = self.double_precision`) -> the option.
  std::unordered_map<std::string, std::string> locals_from_options_;
};

}  // namespace mpsready
