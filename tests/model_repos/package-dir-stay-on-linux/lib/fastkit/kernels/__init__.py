from .gelu import fused_gelu
