from .device import infer_device
from .methods import ADAPTERS, wrap
