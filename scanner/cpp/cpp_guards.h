#pragma once
// C++ runtime checks for CUDA and the code they protect, read from the raw tokens (the same in
// tolerant and compile-commands modes, and through parse errors):
//   if (torch::cuda::is_available()) { … }     if (t.is_cuda()) …;     x.is_cuda() ? a : b
//   if (!x.is_cuda()) { cpu } else { … }       if (!x.is_cuda()) return cpu(x);  … (rest of block)
// A check is `torch::cuda::is_available()`, `torch::cuda::cudnn_is_available()`,
// `at::hasCUDA()`, `torch::cuda::device_count() > 0`, `<expr>.is_cuda()`, `<expr>->is_cuda()`, or a
// device type compared with `== kCUDA` / `DeviceType::CUDA`. A condition with `||`, a check
// that is only asserted (`TORCH_CHECK(x.is_cuda())`) or only stored (`bool c = x.is_cuda();`)
// protects nothing.
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "token_scanner.h"

namespace mpsready {

struct CppGuards {
  using Span = std::pair<uint32_t, uint32_t>;  // byte offsets, end exclusive
  std::vector<Span> guarded;  // code that runs only where CUDA is present
  std::vector<Span> checks;   // the checks of those guards (never findings themselves)

  bool protects(uint32_t offset) const;
  bool is_check(uint32_t start, uint32_t end) const;
};

CppGuards find_cuda_guards(const std::vector<CppToken>& tokens, std::string_view text);

}  // namespace mpsready
