#include "device_registry.h"

at::Tensor nms_impl(at::Tensor boxes, at::Tensor scores, double iou) {
  return DISPATCH_DEVICE_IMPL(nms_impl, boxes, scores, iou);
}

at::Tensor nms(at::Tensor boxes, at::Tensor scores, double iou) { return nms_impl(boxes, scores, iou); }
