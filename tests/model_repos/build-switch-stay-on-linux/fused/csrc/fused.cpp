#include <torch/extension.h>

void launch_add(float* x, const float* y, int n);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("add", [](torch::Tensor x, torch::Tensor y) { return x; }); }
