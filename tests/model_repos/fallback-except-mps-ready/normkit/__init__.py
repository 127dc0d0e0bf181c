from .norm import rms_norm
