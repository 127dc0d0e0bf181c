#include "device_registry.h"

at::Tensor roi_align_impl(at::Tensor features, at::Tensor rois) {
  return DISPATCH_DEVICE_IMPL(roi_align_impl, features, rois);
}

at::Tensor roi_align(at::Tensor features, at::Tensor rois) { return roi_align_impl(features, rois); }
