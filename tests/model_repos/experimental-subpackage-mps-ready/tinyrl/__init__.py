from .policy import Policy

__all__ = ["Policy"]
