#pragma once
// A model's outputs as a flat list of tensors (whatever nesting the model returns), their hashes,
// and a file format for them: saving, reloading and comparing bit for bit is how a run shows it
// can be repeated.
#include <optional>
#include <string>
#include <vector>

#include <torch/script.h>
#include <torch/utils.h>

namespace mpsready {

// Tensors of a model's return value in order: a tensor; tuples and lists in order; dict values
// in key order. Non-tensor leaves (ints, strings, None) are skipped.
std::vector<torch::Tensor> flatten_outputs(const c10::IValue& value);

// SHA-256 over dtype, shape and the bytes of the contiguous CPU copy.
std::string tensor_hash(const torch::Tensor& t);
std::vector<std::string> output_hashes(const std::vector<torch::Tensor>& outputs);

// torch::pickle_save of a tuple of CPU tensors (readable by torch.load in Python as well).
bool save_outputs(const std::string& path, const std::vector<torch::Tensor>& outputs, std::string& error);
std::optional<std::vector<torch::Tensor>> load_outputs(const std::string& path, std::string& error);

// Same dtype, shape and bytes (so NaN payloads and -0.0 count).
bool bitwise_equal(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b);

// True when every floating or complex element is finite.
bool all_finite(const std::vector<torch::Tensor>& tensors);

}  // namespace mpsready
