import torch


class CUDAAccelerator:
    def device_name(self):
        return "cuda"

    def communication_backend_name(self):
        return "nccl"


class MPSAccelerator:
    """Apple silicon: gloo carries CPU tensors; MPS tensors are staged through the CPU."""

    def device_name(self):
        return "mps"

    def communication_backend_name(self):
        return "gloo"

    def synchronize(self):
        torch.mps.synchronize()


# The trap: a per-device map that gives MPS and the CPU gloo.
BACKENDS = {
    "cuda": "nccl",
    "mps": "gloo",
    "cpu": "gloo",
}


def get_accelerator():
    if torch.backends.mps.is_available():
        return MPSAccelerator()
    return CUDAAccelerator()
