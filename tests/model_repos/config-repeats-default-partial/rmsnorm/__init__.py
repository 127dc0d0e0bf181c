"""RMSNorm with an optional fused CUDA kernel."""
from .layers import RMSNorm

__all__ = ["RMSNorm"]
