#include "device_registry.h"

at::Tensor box_iou_impl(at::Tensor a, at::Tensor b) {
  return DISPATCH_DEVICE_IMPL(box_iou_impl, a, b);
}

at::Tensor box_iou(at::Tensor a, at::Tensor b) { return box_iou_impl(a, b); }
