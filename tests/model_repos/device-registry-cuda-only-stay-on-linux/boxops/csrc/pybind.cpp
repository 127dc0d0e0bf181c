#include <torch/extension.h>

at::Tensor nms(at::Tensor boxes, at::Tensor scores, double iou);
at::Tensor box_iou(at::Tensor a, at::Tensor b);
at::Tensor roi_align(at::Tensor features, at::Tensor rois);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("nms", &nms, "non-maximum suppression");
  m.def("box_iou", &box_iou, "pairwise IoU");
  m.def("roi_align", &roi_align, "RoI align");
}
