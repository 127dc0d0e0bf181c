import torch

from trainkit.accelerators.base import Accelerator


class CUDAAccelerator(Accelerator):
    def setup_device(self, device):
        torch.cuda.set_device(device)

    def parallel_devices(self, count):
        return [torch.device("cuda", i) for i in range(count)]

    @staticmethod
    def is_available():
        return torch.cuda.device_count() > 0
