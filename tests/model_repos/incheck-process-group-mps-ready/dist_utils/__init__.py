from .comm import all_gather, reduce_dict, synchronize

__all__ = ["all_gather", "reduce_dict", "synchronize"]
