import torch

from trainkit.accelerators.base import Accelerator


class MPSAccelerator(Accelerator):
    def setup_device(self, device):
        if device.type != "mps":
            raise ValueError(f"MPSAccelerator cannot run on {device}")

    def parallel_devices(self, count):
        return [torch.device("mps")]

    @staticmethod
    def is_available():
        return torch.backends.mps.is_available()
