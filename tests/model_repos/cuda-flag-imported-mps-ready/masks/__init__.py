from .ops import causal_mask

__all__ = ["causal_mask"]
