import torch

from .model import TinyNet

# The fast path is imported only where CUDA is, or falls back when its import fails.
if torch.cuda.is_available():
    from examples.fastpath import fast_attention
else:
    fast_attention = None

try:
    from examples.fused import fused_norm
except ImportError:
    fused_norm = None

__all__ = ["TinyNet", "fast_attention", "fused_norm"]
