from .ops import fill, blur, scale, pick

__all__ = ["fill", "blur", "scale", "pick"]
