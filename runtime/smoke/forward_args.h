#pragma once
// Named inputs (a dict saved with torch.save) in the order of the model's forward arguments. A
// TorchScript module's forward has a schema with argument names; the dict's keys must be those
// names, so a typo or a missing input is an error that names the arguments, not a shape error
// deep inside the model.
#include <optional>
#include <string>
#include <vector>

#include <torch/script.h>

#include "smoke/input_spec.h"

namespace mpsready {

// forward's argument names, `self` excluded; nullopt when the module has no forward method.
std::optional<std::vector<std::string>> forward_argument_names(const torch::jit::Module& module);

// The tensors of `file` ordered as forward takes them. Every argument without a default must be
// in the dict; an argument with a default may be left out only when every later one is too
// (inputs are passed by position). On error returns nullopt and sets `error`.
std::optional<std::vector<torch::Tensor>> bind_to_forward(const InputsFile& file, const torch::jit::Module& module,
                                                          const std::string& path, std::string& error);

}  // namespace mpsready
