from .experimental.rollout import blocks
from .policy import Policy

__all__ = ["Policy", "blocks"]
