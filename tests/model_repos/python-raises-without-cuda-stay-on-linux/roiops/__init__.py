import torch

from . import _C


def roi_pool(features: torch.Tensor, rois: torch.Tensor) -> torch.Tensor:
    # The extension's CPU build is complete, but the core function refuses anything but CUDA.
    if features.is_cuda:
        return _C.roi_pool_forward(features, rois)
    raise NotImplementedError("roi_pool runs on CUDA only")


def roi_pool_grad(grad: torch.Tensor, rois: torch.Tensor) -> torch.Tensor:
    if not grad.is_cuda:
        raise NotImplementedError("roi_pool_grad runs on CUDA only")
    return _C.roi_pool_backward(grad, rois)
