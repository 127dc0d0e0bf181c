from .model import TinyNet

# The fast path lives in examples/, but the package imports it whenever it is imported.
from examples.fastpath import fast_attention

__all__ = ["TinyNet", "fast_attention"]
