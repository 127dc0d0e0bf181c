from .model import TinyNet
