from .kernels import fused_gelu
