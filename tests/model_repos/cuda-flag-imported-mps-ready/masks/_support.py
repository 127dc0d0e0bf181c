import torch

# A CUDA test bound once at the top: False on a Mac, wherever it is read.
_SUPPORTS_FAST_MASK = torch.cuda.is_available() and torch.cuda.get_device_capability() >= (8, 0)
