"""Fixture for py-cuda-required.

The docstring may say: assert torch.cuda.is_available() is a hard requirement.
"""
import os
import sys
import unittest
import warnings

import pytest
import numpy as np
import torch
from torch import cuda

# expect: py-cuda-required
assert torch.cuda.is_available(), "this script needs a GPU"

# expect: py-cuda-required
if not torch.cuda.is_available():
    raise RuntimeError("CUDA is required")

# expect: py-cuda-required
if not cuda.is_available():
    print("No CUDA device found, exiting.")
    sys.exit(1)


def check_inputs(x, weight):
    # expect: py-cuda-required
    assert x.is_cuda, "input must be a CUDA tensor"
    # expect: py-cuda-required
    assert weight.device.type == "cuda"
    # expect: py-cuda-required
    assert torch.cuda.device_count() >= 2, "needs two GPUs"


def launch(world_size, args):
    # expect: py-cuda-required
    if torch.cuda.device_count() < world_size:
        raise ValueError(f"need {world_size} GPUs")
    if args.dry_run:
        return None
    # expect: py-cuda-required
    elif not torch.cuda.is_available():
        raise SystemExit("no GPU")
    # expect: py-cuda-required
    if not args.cuda:
        exit("pass --cuda")
    return world_size


def cpu_path():
    return torch.device("cpu")


def pick_device():
    # ok: py-cuda-required
    if not torch.cuda.is_available():
        return cpu_path()
    return torch.device("cuda")


def pick_device_2():
    # ok: py-cuda-required
    if not torch.cuda.is_available():
        device = "cpu"
    else:
        device = "cuda"
    return device


def pick_device_3():
    # ok: py-cuda-required
    if not torch.cuda.is_available():
        warnings.warn("CUDA not found, training will be slow")
    # ok: py-cuda-required
    if not torch.cuda.is_available() and not torch.backends.mps.is_available():
        raise RuntimeError("needs a GPU (CUDA or MPS)")
    # ok: py-cuda-required
    assert torch.cuda.is_available() or torch.backends.mps.is_available()
    # ok: py-cuda-required
    assert torch.backends.mps.is_available()
    # ok: py-cuda-required
    if not torch.cuda.is_available():
        if torch.backends.mps.is_available():
            return torch.device("mps")
        raise RuntimeError("no accelerator")
    return torch.device("cuda")


def check_cpu(x, n):
    # ok: py-cuda-required
    assert not x.is_cuda
    # ok: py-cuda-required
    assert x.device.type != "cuda"
    # ok: py-cuda-required
    assert n > 0, "torch.cuda.is_available() must be checked first"
    # ok: py-cuda-required
    print("assert torch.cuda.is_available()")


# ok: py-cuda-required
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_kernel():
    # ok: py-cuda-required
    if not torch.cuda.is_available():
        pytest.skip("needs CUDA")


class KernelTest(unittest.TestCase):
    def setUp(self):
        # ok: py-cuda-required
        if not torch.cuda.is_available():
            raise unittest.SkipTest("needs CUDA")


def compare(trace_cpu, trace_cuda, x):
    # Names that merely contain "cuda" are no CUDA check.
    # ok: py-cuda-required
    assert np.allclose(trace_cpu, trace_cuda)
    # ok: py-cuda-required
    assert is_cuda_ok(x)
    # expect: py-cuda-required
    assert x.is_cuda


def setup_distributed(opt, local_rank):
    # Only a distributed launch runs this; a Mac's single process has local_rank -1.
    if local_rank != -1:
        # expect-guarded: py-cuda-required
        assert torch.cuda.device_count() > local_rank, "insufficient CUDA devices for DDP"
    if int(os.environ.get("LOCAL_RANK", -1)) == -1:
        device = opt.device
    else:
        # expect-guarded: py-cuda-required
        assert torch.cuda.is_available(), "DDP needs CUDA"
    if local_rank == 0:
        # expect: py-cuda-required
        assert torch.cuda.is_available(), "rank 0 is also a single process"


def check_chosen_device(args, device):
    # A requirement of the CUDA device the user asked for: a Mac's run asks for mps.
    if args.device == "cuda":
        # expect-guarded: py-cuda-required
        assert torch.cuda.is_available(), f"CUDA is not available but {args.device} was specified"
    if str(device).startswith("cuda"):
        # expect-guarded: py-cuda-required
        assert torch.cuda.device_count() > 0, "no CUDA device"
    if args.device == "auto":
        # expect: py-cuda-required
        assert torch.cuda.is_available(), "auto picks a GPU"


def check_after_mps_branch(x):
    # The branch an MPS test leaves to other devices: a Mac's run takes the MPS one.
    is_mps = x.device.type == "mps"
    if is_mps:
        x = x.float()
    else:
        # expect-guarded: py-cuda-required
        assert torch.cuda.is_available(), "the non-MPS path runs on CUDA"
    return x
