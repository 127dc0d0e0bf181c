#include "test_models.h"

#include <torch/script.h>
#include <torch/script.h>
#include <torch/utils.h>

namespace mpsready::testing {

namespace fs = std::filesystem;

namespace {

fs::path save(torch::jit::Module& m, const fs::path& dir, const std::string& name) {
  fs::create_directories(dir);
  const fs::path path = dir / name;
  m.save(path.string());
  return path;
}

}  // namespace

fs::path save_clean_model(const fs::path& dir) {
  torch::manual_seed(1);
  torch::jit::Module m("Clean");
  m.register_parameter("weight", (torch::randn({8, 4}) * 0.3).requires_grad_(true), false);
  m.register_parameter("bias", (torch::randn({4}) * 0.1).requires_grad_(true), false);
  m.define(R"(
def forward(self, x):
    h = torch.relu(torch.matmul(x, self.weight) + self.bias)
    return (h, h.sum(dim=1))
)");
  return save(m, dir, "clean.pt");
}

fs::path save_nan_model(const fs::path& dir) {
  torch::jit::Module m("ProducesNaN");
  m.register_parameter("weight", (torch::ones({8, 4})).requires_grad_(true), false);
  m.define(R"(
def forward(self, x):
    return torch.sqrt(torch.matmul(x, self.weight).abs() * -1.0 - 1.0)
)");
  return save(m, dir, "nan.pt");
}

fs::path save_float64_model(const fs::path& dir) {
  torch::manual_seed(2);
  torch::jit::Module m("Float64");
  m.register_parameter("weight", (torch::randn({8, 4}, torch::kDouble)).requires_grad_(true), false);
  m.define(R"(
def forward(self, x):
    return torch.matmul(x.double(), self.weight)
)");
  return save(m, dir, "float64.pt");
}

fs::path save_dict_model(const fs::path& dir) {
  torch::manual_seed(3);
  torch::jit::Module m("TwoLayer");
  m.register_parameter("w1", (torch::randn({8, 16}) * 0.3).requires_grad_(true), false);
  m.register_parameter("w2", (torch::randn({16, 3}) * 0.3).requires_grad_(true), false);
  m.define(R"(
def forward(self, x) -> Dict[str, Tensor]:
    hidden = torch.tanh(torch.matmul(x, self.w1))
    return {"logits": torch.matmul(hidden, self.w2), "hidden": hidden}
)");
  return save(m, dir, "dict.pt");
}

fs::path save_inputs_archive(const fs::path& dir) {
  torch::manual_seed(4);
  torch::jit::Module m("Inputs");
  m.register_attribute("inputs", c10::TupleType::create({c10::TensorType::get()}),
                       c10::ivalue::Tuple::create({torch::randn({4, 8})}));
  return save(m, dir, "inputs.pt");
}

}  // namespace mpsready::testing
