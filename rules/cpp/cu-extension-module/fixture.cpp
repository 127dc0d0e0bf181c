// Bindings of a small extension: one pybind11 module, one operator library.
#include <torch/extension.h>
#include <torch/library.h>

torch::Tensor fused_gelu(torch::Tensor x);

// ok: cu-extension-module
// PYBIND11_MODULE(name, m) in a comment is not an entry point.
// ok: cu-extension-module
const char* kDoc = "built with PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)";

// expect: cu-extension-module
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  // ok: cu-extension-module
  m.def("fused_gelu", &fused_gelu, "fused GELU");
}

// expect: cu-extension-module
TORCH_LIBRARY(fusedops, m) {
  // ok: cu-extension-module
  m.def("gelu(Tensor x) -> Tensor");
}

// expect: cu-extension-module
TORCH_LIBRARY_FRAGMENT(fusedops, m) {
  m.def("gelu_backward(Tensor g, Tensor x) -> Tensor");
}

// The kernel registrations are another rule's business (cu-cuda-dispatch-key).
// ok: cu-extension-module
TORCH_LIBRARY_IMPL(fusedops, CPU, m) {
  m.impl("gelu", &fused_gelu);
}

// ok: cu-extension-module
void register_python_module_later();
