from .layers import Segmenter

__all__ = ["Segmenter"]
