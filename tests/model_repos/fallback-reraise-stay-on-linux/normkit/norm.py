import warnings

import torch

from .fused import fused_rms_norm


def reference_rms_norm(x: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)


def rms_norm(x: torch.Tensor) -> torch.Tensor:
    # The trap: the handler re-raises, so a Mac fails here.
    try:
        return fused_rms_norm(x)
    except Exception:
        warnings.warn("the fused kernel failed")
        raise
