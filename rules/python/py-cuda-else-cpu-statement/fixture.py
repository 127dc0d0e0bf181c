"""Fixture for py-cuda-else-cpu-statement.

A docstring may say: if torch.cuda.is_available(): device = "cuda" else: device = "cpu".
"""
import torch


def pick():
    # expect: py-cuda-else-cpu-statement
    if torch.cuda.is_available():
        device = torch.device("cuda")
    else:
        device = torch.device("cpu")
    return device


def pick_string(args):
    # expect: py-cuda-else-cpu-statement
    if torch.cuda.is_available():
        args.device = "cuda:0"
    else:
        args.device = "cpu"
    return args


def with_mps():
    # An MPS branch between them.
    # ok: py-cuda-else-cpu-statement
    if torch.cuda.is_available():
        device = torch.device("cuda")
    elif torch.backends.mps.is_available():
        device = torch.device("mps")
    else:
        device = torch.device("cpu")
    return device


def not_a_cuda_check(cluster):
    # A setting of the run, not a CUDA check.
    # ok: py-cuda-else-cpu-statement
    if cluster.name == "a100-pool":
        device = "cuda"
    else:
        device = "cpu"
    return device


def different_names():
    # ok: py-cuda-else-cpu-statement
    if torch.cuda.is_available():
        train_device = "cuda"
    else:
        eval_device = "cpu"
    return train_device, eval_device


def more_in_the_branch():
    # The branch does more than choose: left to the rules of what it does.
    # ok: py-cuda-else-cpu-statement
    if torch.cuda.is_available():
        device = "cuda"
        torch.backends.cudnn.benchmark = True
    else:
        device = "cpu"
    return device
