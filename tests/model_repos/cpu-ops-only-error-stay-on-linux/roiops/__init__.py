import torch

from . import _C


def roi_pool(features: torch.Tensor, rois: torch.Tensor) -> torch.Tensor:
    return _C.roi_pool_forward(features, rois)


def roi_pool_grad(grad: torch.Tensor, rois: torch.Tensor) -> torch.Tensor:
    return _C.roi_pool_backward(grad, rois)
