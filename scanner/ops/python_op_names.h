#pragma once
// Which aten operator a Python call into PyTorch runs, by its resolved qualified name.
#include <string>

#include "ops/native_functions.h"

namespace mpsready {

// `torch.X` -> X, `torch.Tensor.X` -> X, `torch.linalg.X` -> linalg_X, `torch.fft.X` -> fft_X,
// `torch.special.X` -> special_X, `torch.nn.functional.X` -> X when `ops` has an op X.
// "" when the name is none of these (an override table handles the exceptions).
std::string aten_op_for_callee(const std::string& callee, const NativeFunctions& ops);

}  // namespace mpsready
