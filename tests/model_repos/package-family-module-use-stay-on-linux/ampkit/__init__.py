from .scalers import ApexScaler, NativeScaler

__all__ = ["ApexScaler", "NativeScaler"]
