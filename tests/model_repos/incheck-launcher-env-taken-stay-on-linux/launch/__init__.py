from .setup import init_single

__all__ = ["init_single"]
