"""Triton kernels used by the model (cuda only)."""
from .triton_softmax import triton_softmax

__all__ = ["triton_softmax"]
