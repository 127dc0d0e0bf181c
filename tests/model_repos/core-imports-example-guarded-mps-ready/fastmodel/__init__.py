import torch

from .model import TinyNet

# The fast path is imported only where CUDA is, or falls back to PyTorch when its import fails.
if torch.cuda.is_available():
    from examples.fastpath import fast_attention
else:
    fast_attention = None

try:
    from examples.fused import fused_norm
except ImportError:
    def fused_norm(x):
        return torch.nn.functional.layer_norm(x, x.shape[-1:])

__all__ = ["TinyNet", "fast_attention", "fused_norm"]
