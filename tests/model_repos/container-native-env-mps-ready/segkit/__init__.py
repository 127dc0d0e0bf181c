from segkit.model import SegModel, predict

__all__ = ["SegModel", "predict"]
