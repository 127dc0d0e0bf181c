#include "ops/module_ops.h"

#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include <torch/csrc/jit/passes/inliner.h>
#include <torch/script.h>

namespace mpsready {
namespace {

using OpKey = std::pair<std::string, std::string>;

// Counts aten nodes of one graph. Blocks nest as deep as the model's control flow; an explicit
// stack keeps that off the C++ call stack.
void count_graph(const torch::jit::Graph& graph, std::map<OpKey, size_t>& counts) {
  std::vector<const torch::jit::Block*> stack = {graph.block()};
  while (!stack.empty()) {
    const torch::jit::Block* block = stack.back();
    stack.pop_back();
    for (const torch::jit::Node* node : block->nodes()) {
      for (const torch::jit::Block* inner : node->blocks()) stack.push_back(inner);
      if (!node->kind().is_aten()) continue;
      const torch::jit::FunctionSchema* schema = node->maybeSchema();
      std::string name = node->kind().toUnqualString();
      ++counts[{std::move(name), schema ? schema->overload_name() : std::string()}];
    }
  }
}

std::map<OpKey, size_t> count_methods(const torch::jit::Module& module) {
  std::map<OpKey, size_t> counts;
  for (const torch::jit::Method& method : module.get_methods()) {
    std::shared_ptr<torch::jit::Graph> graph = method.graph()->copy();
    torch::jit::Inline(*graph);
    count_graph(*graph, counts);
  }
  return counts;
}

}  // namespace

std::vector<ModuleOp> list_aten_ops(const torch::jit::Module& module) {
  std::map<OpKey, size_t> counts = count_methods(module);
  // Submodules' methods that the module's own methods never call (exported helpers).
  for (const auto& child : module.named_modules()) {
    if (child.name.empty()) continue;  // the module itself
    for (auto& [key, n] : count_methods(child.value))
      if (!counts.count(key)) counts.emplace(key, n);
  }
  std::vector<ModuleOp> ops;
  for (auto& [key, n] : counts) ops.push_back({key.first, key.second, n});
  return ops;
}

torch::jit::Module load_torchscript(const std::filesystem::path& path) {
  try {
    return torch::jit::load(path.string(), torch::kCPU);
  } catch (const c10::Error& e) {
    throw std::runtime_error(path.string() + ": not a TorchScript file LibTorch can load: " +
                             e.what_without_backtrace());
  }
}

}  // namespace mpsready
