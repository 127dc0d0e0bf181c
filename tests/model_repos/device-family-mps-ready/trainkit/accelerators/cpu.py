import torch

from trainkit.accelerators.base import Accelerator


class CPUAccelerator(Accelerator):
    def setup_device(self, device):
        torch.set_num_threads(max(1, torch.get_num_threads()))

    def parallel_devices(self, count):
        return [torch.device("cpu")] * count

    @staticmethod
    def is_available():
        return True
