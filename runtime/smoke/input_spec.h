#pragma once
// The model's example inputs: generated from `--input SHAPE:DTYPE` specs, or read from a file
// (`--inputs FILE`). Generated inputs are seeded, so two runs, two processes and two machines
// feed the model the same numbers.
#include <optional>
#include <string>
#include <vector>

#include <torch/script.h>
#include <torch/utils.h>

namespace mpsready {

struct InputSpec {
  std::vector<int64_t> shape;
  c10::ScalarType dtype = c10::kFloat;
  std::string text;  // as given, for the record
};

// "8x3x224x224:float32", "4x128:int64", "16:bool", ":float32" (a 0-d scalar). On error returns
// nullopt and sets `error`.
std::optional<InputSpec> parse_input_spec(const std::string& text, std::string& error);
std::optional<c10::ScalarType> parse_dtype(const std::string& name);
std::string dtype_name(c10::ScalarType dtype);  // "float32", "int64", ...

// Floating point: standard normal. Integers: uniform in [0, 10), small enough to index any
// embedding table. bool: fair coin. Complex: normal real and imaginary parts.
std::vector<torch::Tensor> make_inputs(const std::vector<InputSpec>& specs, uint64_t seed);

// What an inputs file holds: positional tensors, or (a dict saved with torch.save) tensors by
// the name of the forward argument they are for.
struct InputsFile {
  std::vector<torch::Tensor> tensors;
  std::vector<std::string> names;  // empty: positional; else one per tensor, in the file's order
};

// A TorchScript archive whose module has an attribute `inputs` (a tensor, or a tuple or list of
// tensors), as scripts/export-model.py writes; or a torch.save file holding a tensor, a tuple or
// list of tensors, or a dict from argument names to tensors (read with torch::pickle_load, which
// accepts only tensors and containers, never arbitrary Python objects). On error returns nullopt
// and sets `error`, naming what is accepted.
std::optional<InputsFile> read_inputs_file(const std::string& path, std::string& error);

// read_inputs_file for a caller without a model to bind names to: a dict is an error.
std::optional<std::vector<torch::Tensor>> load_inputs_file(const std::string& path, std::string& error);

// Scales the leading dimension of every input with at least one dimension to `batch`, cycling
// through the rows the input has (so a file's real examples are reused, not invented).
std::vector<torch::Tensor> with_batch_size(const std::vector<torch::Tensor>& inputs, int64_t batch);

}  // namespace mpsready
