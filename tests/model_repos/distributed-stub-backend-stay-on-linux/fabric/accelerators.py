import torch


class CUDAAccelerator:
    def device_name(self):
        return "cuda"

    def communication_backend_name(self):
        return "nccl"


class MPSAccelerator:
    """Apple silicon."""

    def device_name(self):
        return None

    def communication_backend_name(self):
        raise NotImplementedError("MPS has no communication backend yet")

    def synchronize(self):
        raise NotImplementedError


# Per-device backends: MPS has none.
BACKENDS = {
    "cuda": "nccl",
    "mps": None,
}


def get_accelerator():
    if torch.backends.mps.is_available():
        return MPSAccelerator()
    return CUDAAccelerator()
