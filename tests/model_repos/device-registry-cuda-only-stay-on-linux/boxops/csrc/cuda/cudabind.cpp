#include "../device_registry.h"

at::Tensor nms_cuda(at::Tensor boxes, at::Tensor scores, double iou);
at::Tensor box_iou_cuda(at::Tensor a, at::Tensor b);
at::Tensor roi_align_cuda(at::Tensor features, at::Tensor rois);

at::Tensor nms_impl(at::Tensor boxes, at::Tensor scores, double iou);
at::Tensor box_iou_impl(at::Tensor a, at::Tensor b);
at::Tensor roi_align_impl(at::Tensor features, at::Tensor rois);

REGISTER_DEVICE_IMPL(nms_impl, CUDA, nms_cuda);
REGISTER_DEVICE_IMPL(box_iou_impl, CUDA, box_iou_cuda);
REGISTER_DEVICE_IMPL(roi_align_impl, CUDA, roi_align_cuda);
