#pragma once
// Real TorchScript models, built by the tests themselves from TorchScript source (no Python): each
// is a torch::jit::Module with parameters and a forward method, saved with Module::save exactly as
// torch.jit.save writes it.
#include <filesystem>
#include <string>

namespace mpsready::testing {

// Linear layer + ReLU, returning (activations, their sum): x is [N, 8] float32.
std::filesystem::path save_clean_model(const std::filesystem::path& dir);
// Like the clean model but its output is sqrt of a negative number: NaN everywhere.
std::filesystem::path save_nan_model(const std::filesystem::path& dir);
// float64 weights (x is converted to float64): runs on the CPU, cannot be held by MPS.
std::filesystem::path save_float64_model(const std::filesystem::path& dir);
// A two-layer network whose forward returns a dict {"logits": ..., "hidden": ...}.
std::filesystem::path save_dict_model(const std::filesystem::path& dir);
// An archive holding `inputs`: a tuple of one [4, 8] float32 tensor (what export-model.py writes).
std::filesystem::path save_inputs_archive(const std::filesystem::path& dir);

}  // namespace mpsready::testing
