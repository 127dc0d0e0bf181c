from .ops import fill

__all__ = ["fill"]
