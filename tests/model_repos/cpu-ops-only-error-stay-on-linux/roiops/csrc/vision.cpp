#include <torch/extension.h>

#include "roi_pool.h"

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("roi_pool_forward", &roi_pool_forward, "RoI pooling, forward");
  m.def("roi_pool_backward", &roi_pool_backward, "RoI pooling, backward");
}
