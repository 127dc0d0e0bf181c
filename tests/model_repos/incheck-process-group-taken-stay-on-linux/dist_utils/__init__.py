from .comm import all_gather, synchronize

__all__ = ["all_gather", "synchronize"]
