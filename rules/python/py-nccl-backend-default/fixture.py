"""Fixture for py-nccl-backend-default. The docstring may say backend = "nccl"."""
from dataclasses import dataclass

import torch
import torch.distributed as dist


@dataclass
class NeoXArgs:
    # expect: py-nccl-backend-default
    distributed_backend: str = "nccl"
    # ok: py-nccl-backend-default
    tokenizer_type: str = "nccl"


def init_backend(device_type):
    map_ = dist.Backend.default_device_backend_map
    # expect: py-nccl-backend-default
    backend = "nccl"
    if device_type in map_:
        backend = map_[device_type]
    return backend


def init_launcher(args):
    # expect: py-nccl-backend-default
    args.dist_backend = 'nccl'
    # ok: py-nccl-backend-default
    args.dist_backend = "gloo"


def context(backend):
    # expect: py-nccl-backend-default
    assert backend == "nccl", "Only nccl backend is supported for now."
    # ok: py-nccl-backend-default
    assert backend != "nccl"


def chosen():
    if torch.cuda.is_available():
        # A choice behind a CUDA check is the right one.
        # ok: py-nccl-backend-default
        backend = "nccl"
    else:
        backend = "gloo"
    # ok: py-nccl-backend-default
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    return backend
