import torch

from . import _ext


def nms(boxes: torch.Tensor, scores: torch.Tensor, iou: float) -> torch.Tensor:
    return _ext.nms(boxes, scores, iou)


def box_iou(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _ext.box_iou(a, b)


def roi_align(features: torch.Tensor, rois: torch.Tensor) -> torch.Tensor:
    return _ext.roi_align(features, rois)
