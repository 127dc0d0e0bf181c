#pragma once
// The aten operators a TorchScript module runs: every method of the module and of its submodules,
// graphs inlined, nested blocks (if/loop bodies) included.
#include <filesystem>
#include <string>
#include <vector>

namespace torch::jit {
struct Module;
}

namespace mpsready {

struct ModuleOp {
  std::string name;      // without the namespace: "add"
  std::string overload;  // "Tensor", "" for the default overload or when no schema matched
  size_t count = 0;      // nodes calling it
};

// Sorted by name and overload. Counts are taken from the inlined graphs of the module's own
// methods (which include every submodule they call); an op that only a submodule's other methods
// use is counted in those.
std::vector<ModuleOp> list_aten_ops(const torch::jit::Module& module);

// Loads a TorchScript file (torch.jit.save / torch::jit::Module::save) on the CPU; throws
// std::runtime_error with LibTorch's message when it is not one.
torch::jit::Module load_torchscript(const std::filesystem::path& path);

}  // namespace mpsready
