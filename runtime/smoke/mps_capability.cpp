#include "smoke/mps_capability.h"

namespace mpsready {

namespace {

std::string blocker_reason(const torch::Tensor& t) {
  if (t.is_sparse()) return "sparse layout: sparse tensors are largely unsupported on MPS";
  switch (t.scalar_type()) {
    case c10::kDouble:
      return "float64: the MPS framework has no float64 (\"Cannot convert a float64 Tensor to MPS\"); use float32";
    case c10::kComplexDouble:
      return "complex128: MPS has no complex128; use complex64";
    default:
      return "";
  }
}

}  // namespace

std::vector<MpsBlocker> find_mps_blockers(const torch::jit::Module& module, const std::vector<torch::Tensor>& inputs) {
  std::vector<MpsBlocker> out;
  for (const auto& p : module.named_parameters(/*recurse=*/true))
    if (auto r = blocker_reason(p.value); !r.empty()) out.push_back({"parameter " + p.name, r});
  for (const auto& b : module.named_buffers(/*recurse=*/true))
    if (b.value.defined())
      if (auto r = blocker_reason(b.value); !r.empty()) out.push_back({"buffer " + b.name, r});
  for (size_t i = 0; i < inputs.size(); ++i)
    if (auto r = blocker_reason(inputs[i]); !r.empty()) out.push_back({"input " + std::to_string(i), r});
  return out;
}

}  // namespace mpsready
