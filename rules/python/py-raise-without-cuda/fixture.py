"""Fixture for py-raise-without-cuda.

The docstring may say: if CUDA_HOME is None: raise RuntimeError("no CUDA").
"""
import os
import unittest

import torch
from torch.utils.cpp_extension import CUDA_HOME, CppExtension, CUDAExtension


def get_extensions(sources, source_cuda):
    if CUDA_HOME is None:
        # expect: py-raise-without-cuda
        raise RuntimeError("Cannot find CUDA_HOME. CUDA must be available to build the package.")
    if torch.cuda.is_available() and CUDA_HOME is not None:
        extension = CUDAExtension
        sources += source_cuda
    else:
        # expect: py-raise-without-cuda
        raise NotImplementedError("Cuda is not available")
    return extension, sources


def init_distributed(local_rank):
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)
        backend = "nccl"
    else:
        # A comment before the raise does not hide it.
        # expect: py-raise-without-cuda
        raise NotImplementedError("CUDA was not found")
    return backend


def offload(device, enabled):
    if enabled:
        if device.type != "cuda" and device.type != "xpu":
            # expect: py-raise-without-cuda
            raise RuntimeError("activation offloading needs CUDA or XPU")


def fallback(x):
    # A branch with CUDA raises; the Mac's branch runs.
    if torch.cuda.is_available():
        # ok: py-raise-without-cuda
        raise RuntimeError("not on CUDA")
    # Without CUDA the CPU path is taken; nothing raises.
    if CUDA_HOME is not None:
        # ok: py-raise-without-cuda
        raise RuntimeError("unexpected toolkit")
    return x


def mps_aware(device):
    # A branch that already knows MPS.
    if device.type != "cuda" and device.type != "mps":
        # ok: py-raise-without-cuda
        raise RuntimeError("needs a GPU")
    if torch.cuda.is_available():
        return "cuda"
    elif torch.backends.mps.is_available():
        return "mps"
    else:
        # ok: py-raise-without-cuda
        raise RuntimeError("no GPU")


class Tests(unittest.TestCase):
    def test_kernel(self):
        if not torch.cuda.is_available() or CUDA_HOME is None:
            # ok: py-raise-without-cuda
            raise unittest.SkipTest("needs CUDA")


def arch_check(arch, cond):
    # A condition that says nothing about CUDA.
    if cond is None:
        # ok: py-raise-without-cuda
        raise ValueError("cond")
