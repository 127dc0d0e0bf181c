from .attention import attend
from .quant import dequantize

__all__ = ["attend", "dequantize"]
