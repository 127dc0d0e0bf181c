from trainkit.accelerators.base import Accelerator


class MPSAccelerator(Accelerator):
    """Apple GPUs: not supported yet."""

    def setup_device(self, device):
        raise NotImplementedError("MPS is not supported yet")

    def parallel_devices(self, count):
        raise NotImplementedError("MPS is not supported yet")

    @staticmethod
    def is_available():
        return False
