from .scalers import ApexScaler

__all__ = ["ApexScaler"]
