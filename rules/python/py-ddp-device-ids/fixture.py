"""DDP wrapper for the trainer.

DistributedDataParallel(model, device_ids=[rank]) in a docstring is not a finding.
"""
import os

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.nn.parallel import DistributedDataParallel
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from mylib.parallel import MyDDP


def wrap(model, args):
    local_rank = int(os.environ["LOCAL_RANK"])
    # expect: py-ddp-device-ids
    model = DDP(model, device_ids=[local_rank], output_device=local_rank)
    model = DDP(
        model,
        # expect: py-ddp-device-ids
        device_ids=[args.gpu],
        find_unused_parameters=True,
    )
    # expect: py-ddp-device-ids
    model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[args.local_rank])
    # expect: py-ddp-device-ids
    model = nn.parallel.DistributedDataParallel(model, output_device=args.local_rank)
    # expect: py-ddp-device-ids
    model = DistributedDataParallel(model, [local_rank])
    # expect: py-ddp-device-ids
    model = DDP(model, device_ids=args.device_ids)
    return model


def wrap_guarded(model, rank):
    if torch.cuda.is_available():
        # expect-guarded: py-ddp-device-ids
        return DDP(model, device_ids=[rank])
    # ok: py-ddp-device-ids
    return DDP(model)


def wrap_portable(model, rank, device):
    # ok: py-ddp-device-ids
    a = DDP(model)
    # ok: py-ddp-device-ids
    b = DDP(model, device_ids=None, output_device=None)
    # ok: py-ddp-device-ids
    c = DDP(model, device_ids=[rank] if torch.cuda.is_available() else None)
    # ok: py-ddp-device-ids
    d = DDP(model, find_unused_parameters=True, broadcast_buffers=False)
    # ok: py-ddp-device-ids
    e = FSDP(model, device_id=rank)
    # ok: py-ddp-device-ids
    f = MyDDP(model, device_ids=[rank])
    # ok: py-ddp-device-ids
    g = nn.DataParallel(model, device_ids=[0, 1])
    # ok: py-ddp-device-ids
    print("pass device_ids=[local_rank] on CUDA")
    return a, b, c, d, e, f, g
