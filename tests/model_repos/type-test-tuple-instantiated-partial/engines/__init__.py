from .api import describe, make_engine

__all__ = ["describe", "make_engine"]
