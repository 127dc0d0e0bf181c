class Accelerator:
    """How a device is set up and which devices a run gets."""

    def setup_device(self, device):
        raise NotImplementedError

    def parallel_devices(self, count):
        raise NotImplementedError

    @staticmethod
    def is_available():
        raise NotImplementedError
