"""Fixture for py-device-dispatch-no-mps.

A docstring may say: if device == "cpu": kind = "cpu" elif device == "cuda": kind = "cuda".
"""
import torch


class Brain:
    def __init__(self, device="cpu"):
        self.device = device
        # expect: py-device-dispatch-no-mps
        if self.device == "cpu":
            self.device_type = "cpu"
        elif "cuda" in self.device:
            self.device_type = "cuda"
            torch.cuda.set_device(0)
        self.ctx = torch.autocast(device_type=self.device_type)


def kind_of(device):
    # expect: py-device-dispatch-no-mps
    if device.startswith("cuda"):
        kind = "cuda"
    elif device == "cpu":
        kind = "cpu"
    return kind


def with_else(device):
    # An `else` gives every other device a value.
    # ok: py-device-dispatch-no-mps
    if device == "cpu":
        kind = "cpu"
    elif device == "cuda":
        kind = "cuda"
    else:
        kind = torch.device(device).type
    return kind


def with_mps(device):
    # A branch for MPS.
    # ok: py-device-dispatch-no-mps
    if device == "cpu":
        kind = "cpu"
    elif device.startswith("cuda") or device == "mps":
        kind = "gpu"
    return kind


def different_names(device):
    # Each branch sets something of its own: nothing is left unset that the other sets.
    # ok: py-device-dispatch-no-mps
    if device == "cpu":
        torch.set_num_threads(4)
    elif device == "cuda":
        torch.backends.cudnn.benchmark = True
    return device


def other_tests(precision):
    # Not a device test.
    # ok: py-device-dispatch-no-mps
    if precision == "fp16":
        dtype = torch.float16
    elif precision == "bf16":
        dtype = torch.bfloat16
    return dtype


def single_branch(device):
    # One branch only: nothing is dispatched.
    # ok: py-device-dispatch-no-mps
    if device == "cuda":
        kind = "cuda"
    return device
