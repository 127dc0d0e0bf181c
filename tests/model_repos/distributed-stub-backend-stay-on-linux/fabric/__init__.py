from .engine import Trainer, initialize

__all__ = ["Trainer", "initialize"]
