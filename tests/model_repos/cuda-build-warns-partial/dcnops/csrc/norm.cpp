#include <torch/extension.h>

torch::Tensor norm_cpu(torch::Tensor x) { return x / x.norm(); }

TORCH_LIBRARY_IMPL(dcnops, CPU, m) { m.impl("norm", &norm_cpu); }

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("norm", &norm_cpu); }
