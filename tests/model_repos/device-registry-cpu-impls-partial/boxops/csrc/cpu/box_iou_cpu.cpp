#include "../device_registry.h"

at::Tensor box_iou_cpu(at::Tensor a, at::Tensor b) {
  auto lt = at::max(a.unsqueeze(1).narrow(2, 0, 2), b.narrow(1, 0, 2));
  auto rb = at::min(a.unsqueeze(1).narrow(2, 2, 2), b.narrow(1, 2, 2));
  return (rb - lt).clamp_min(0).prod(2);
}

at::Tensor box_iou_impl(at::Tensor a, at::Tensor b);
REGISTER_DEVICE_IMPL(box_iou_impl, CPU, box_iou_cpu);
