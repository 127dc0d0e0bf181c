"""A detector library: the model, and an export helper for several formats."""
from .model import Detector
from .export import export

__all__ = ["Detector", "export"]
