from .layers import gelu
