"""Multi-GPU wrapper.

nn.DataParallel(model) in a docstring is not a finding.
"""
import torch
import torch.nn as nn
from torch.nn import DataParallel
from torch.nn.parallel import DataParallel as DP, DistributedDataParallel
from torch.nn.parallel import data_parallel
from mmcv.parallel import MMDataParallel


def build(model, args):
    # expect: py-data-parallel
    model = nn.DataParallel(model)
    # expect: py-data-parallel
    model = torch.nn.DataParallel(model, device_ids=[0, 1])
    # expect: py-data-parallel
    model = torch.nn.parallel.DataParallel(model, device_ids=args.gpus)
    # expect: py-data-parallel
    model = DataParallel(model)
    # expect: py-data-parallel
    model = DP(model, output_device=0)
    return model


def forward(model, x):
    # expect: py-data-parallel
    return data_parallel(model, x, device_ids=[0, 1])


def build_guarded(model, args):
    if torch.cuda.device_count() > 1:
        # expect-guarded: py-data-parallel
        model = nn.DataParallel(model)
    if args.n_gpu > 1:
        # expect-guarded: py-data-parallel
        model = torch.nn.DataParallel(model)
    # expect-guarded: py-data-parallel
    model = nn.DataParallel(model) if torch.cuda.is_available() else model
    return model


def negatives(model, x):
    # ok: py-data-parallel
    base = model.module if isinstance(model, nn.DataParallel) else model
    # ok: py-data-parallel
    wrapped = isinstance(model, (DataParallel, DistributedDataParallel))
    # ok: py-data-parallel
    mm = MMDataParallel(model, device_ids=[0])
    # ok: py-data-parallel
    print("wrapping with nn.DataParallel(model)")
    # ok: py-data-parallel
    state = {k.replace("module.", ""): v for k, v in model.state_dict().items()}
    return base, wrapped, mm, state
