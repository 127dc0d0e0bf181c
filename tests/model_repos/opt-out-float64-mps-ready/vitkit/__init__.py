from .residual import OrthogonalResidual

__all__ = ["OrthogonalResidual"]
