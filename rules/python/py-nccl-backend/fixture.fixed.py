"""Multi-GPU launcher.

init_process_group("nccl") in a docstring is not a finding.
"""
import argparse
import os

import torch
import torch.distributed as dist
from torch.distributed import init_process_group, new_group, Backend
import torch as t


def setup(rank, world_size):
    os.environ["MASTER_ADDR"] = "localhost"
    # expect: py-nccl-backend
    dist.init_process_group(("nccl" if torch.cuda.is_available()
                             else "gloo"), rank=rank, world_size=world_size)


def setup_kw(args):
    # expect: py-nccl-backend
    torch.distributed.init_process_group(backend=("nccl" if torch.cuda.is_available()
                                                  else "gloo"), init_method="env://")
    # expect: py-nccl-backend
    init_process_group(backend=("nccl" if torch.cuda.is_available() else "gloo"))
    # ok: py-nccl-backend
    t.distributed.init_process_group(backend="cpu:gloo,cuda:nccl")
    # expect: py-nccl-backend
    dist.init_process_group(backend=(dist.Backend.NCCL if torch.cuda.is_available()
                                     else dist.Backend.GLOO))
    # expect: py-nccl-backend
    group = new_group(ranks=[0, 1], backend=("nccl" if torch.cuda.is_available() else "gloo"))
    # expect: py-nccl-backend
    dist.init_process_group((Backend.NCCL if torch.cuda.is_available() else Backend.GLOO))
    # expect: py-nccl-backend
    sub = dist.new_group([0, 1], backend=(Backend.NCCL if torch.cuda.is_available()
                                          else Backend.GLOO))
    # ok: py-nccl-backend
    if dist.get_backend() == Backend.NCCL:
        torch.cuda.set_device(args.local_rank)
    # todo-expect: py-nccl-backend
    backend = "nccl"
    # ok: py-nccl-backend
    dist.init_process_group(backend)
    return group, sub


def setup_guarded(rank, world_size):
    if torch.cuda.is_available():
        # expect-guarded: py-nccl-backend
        dist.init_process_group("nccl", rank=rank, world_size=world_size)
    else:
        # ok: py-nccl-backend
        dist.init_process_group("gloo", rank=rank, world_size=world_size)


def setup_portable(args, rank, world_size):
    # ok: py-nccl-backend
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    # ok: py-nccl-backend
    dist.init_process_group(backend, rank=rank, world_size=world_size)
    # ok: py-nccl-backend
    dist.init_process_group(backend=args.backend)
    # ok: py-nccl-backend
    dist.init_process_group(backend="nccl" if torch.cuda.is_available() else "gloo")
    # ok: py-nccl-backend
    group = dist.new_group(ranks=[0, 1], backend=dist.Backend.GLOO)
    # ok: py-nccl-backend
    dist.init_process_group(backend=dist.Backend.NCCL if torch.cuda.is_available() else dist.Backend.GLOO)
    # ok: py-nccl-backend
    print("using nccl backend")
    # ok: py-nccl-backend
    nccl_ok = dist.is_nccl_available()
    return group, nccl_ok


def cli():
    parser = argparse.ArgumentParser()
    # ok: py-nccl-backend
    parser.add_argument("--backend", default="gloo", help="nccl or gloo")
    # todo-expect: py-nccl-backend
    parser.add_argument("--dist-backend", default="nccl")
    return parser.parse_args()
