"""Fixture for py-device-dispatch-unset-read.

A docstring may say: if device == "cpu": kind = "cpu" elif device == "cuda": kind = "cuda"; kind.
"""
import torch


class Brain:
    def __init__(self, device="cpu", precision="fp32"):
        self.device = device
        # ok: py-device-dispatch-unset-read
        if self.device == "cpu":
            # ok: py-device-dispatch-unset-read
            self.device_type = "cpu"
        elif "cuda" in self.device:
            self.device_type = "cuda"
            torch.cuda.set_device(0)
        self.precision = precision
        # expect: py-device-dispatch-unset-read
        if self.device_type == "cpu" and self.precision == "fp16":
            raise ValueError("fp16 needs a GPU")
        # ok: py-device-dispatch-unset-read
        self.ctx = torch.autocast(device_type=self.device_type)


def kind_of(device):
    if device.startswith("cuda"):
        kind = "cuda"
    elif device == "cpu":
        kind = "cpu"
    # expect: py-device-dispatch-unset-read
    return kind


def set_again(device):
    # The name is set again before anything reads it: nothing is read unset.
    if device == "cpu":
        kind = "cpu"
    elif device == "cuda":
        kind = "cuda"
    # ok: py-device-dispatch-unset-read
    kind = torch.device(device).type
    return kind


def with_else(device):
    # An `else` gives every other device a value: no dispatch to follow.
    if device == "cpu":
        kind = "cpu"
    elif device == "cuda":
        kind = "cuda"
    else:
        kind = torch.device(device).type
    # ok: py-device-dispatch-unset-read
    return kind


def never_read(device):
    # Set and never read again: nothing fails here.
    if device == "cpu":
        kind = "cpu"
    elif device == "cuda":
        kind = "cuda"
    return device
