from .ops import smooth

__all__ = ["smooth"]
