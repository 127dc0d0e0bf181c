"""Fixture for py-device-choice-rejects-mps.

A docstring may say: if "cuda" in device: ... elif device == "cpu": ... else: raise.
"""
import torch


def setup(device):
    # expect: py-device-choice-rejects-mps
    if "cuda" in device:
        torch.cuda.set_device(device)
    elif device == "cpu":
        torch.set_num_threads(8)
    else:
        raise ValueError(f"unsupported device {device}")
    return torch.device(device)


def setup_cpu_first(device):
    # expect: py-device-choice-rejects-mps
    if device == "cpu":
        kind = "cpu"
    elif device.startswith("cuda"):
        kind = "cuda"
    else:
        raise NotImplementedError(device)
    return kind


def with_mps(device):
    # A branch for MPS.
    # ok: py-device-choice-rejects-mps
    if device == "cpu":
        kind = "cpu"
    elif device == "cuda":
        kind = "cuda"
    elif device == "mps":
        kind = "mps"
    else:
        raise ValueError(device)
    return kind


def else_goes_on(device):
    # The `else` lets every other device through.
    # ok: py-device-choice-rejects-mps
    if device == "cpu":
        kind = "cpu"
    elif device == "cuda":
        kind = "cuda"
    else:
        kind = torch.device(device).type
    return kind


def not_a_device(precision):
    # ok: py-device-choice-rejects-mps
    if precision == "fp16":
        dtype = torch.float16
    elif precision == "bf16":
        dtype = torch.bfloat16
    else:
        raise ValueError(precision)
    return dtype
