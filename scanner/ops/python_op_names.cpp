#include "ops/python_op_names.h"

#include <array>
#include <utility>

namespace mpsready {

std::string aten_op_for_callee(const std::string& callee, const NativeFunctions& ops) {
  // Submodules whose functions are aten ops with a prefix (codegen's python_module).
  static const std::array<std::pair<std::string_view, std::string_view>, 4> kPrefixed = {{
      {"torch.linalg.", "linalg_"}, {"torch.fft.", "fft_"}, {"torch.special.", "special_"}, {"torch.Tensor.", ""}}};
  const auto leaf_after = [&](std::string_view prefix) -> std::string {
    if (callee.size() <= prefix.size() || callee.compare(0, prefix.size(), prefix) != 0) return {};
    const std::string leaf = callee.substr(prefix.size());
    return leaf.find('.') == std::string::npos ? leaf : std::string();
  };
  for (const auto& [prefix, op_prefix] : kPrefixed)
    if (std::string leaf = leaf_after(prefix); !leaf.empty()) return std::string(op_prefix) + leaf;
  // torch.nn.functional is Python code; most of its functions call the aten op of the same name.
  if (std::string leaf = leaf_after("torch.nn.functional."); !leaf.empty())
    return ops.has_name(leaf) ? leaf : std::string();
  return leaf_after("torch.");
}

}  // namespace mpsready
