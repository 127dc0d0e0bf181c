"""Mixed-precision training loop.

Mentions of torch.cuda.amp.autocast() in a docstring are not findings.
"""
import argparse
from contextlib import nullcontext
from typing import Optional

import torch
import torch as t
from torch.cuda.amp import autocast, GradScaler
from torch.cuda import amp as cuda_amp
from torch.amp import GradScaler as AmpGradScaler
from torch import autocast as torch_autocast
from utils import amp as my_amp


class Trainer:
    def __init__(self, model, args):
        self.model = model
        # expect: py-cuda-amp
        self.scaler = torch.cuda.amp.GradScaler(enabled=args.fp16)
        # expect: py-cuda-amp
        self.scaler2 = GradScaler()
        # expect: py-cuda-amp
        self.scaler3 = torch.amp.GradScaler()
        # expect: py-cuda-amp
        self.scaler4 = torch.amp.GradScaler("cuda", init_scale=2.0**16)
        # expect: py-cuda-amp
        self.scaler5 = AmpGradScaler(device="cuda")
        # expect: py-cuda-amp
        self.scaler6 = torch.amp.GradScaler(enabled=args.fp16)
        # expect: py-cuda-amp
        self.ctx = torch.cuda.amp.autocast if args.fp16 else nullcontext

    def step(self, batch):
        # expect: py-cuda-amp
        with torch.cuda.amp.autocast():
            loss = self.model(batch)
        # expect: py-cuda-amp
        with autocast(dtype=torch.float16):
            loss = loss + self.model(batch)
        # A name imported from torch.cuda.amp (a file with a GradScaler keeps CUDA-only autocast).
        # expect: py-cuda-amp
        with autocast():
            loss = loss + self.model(batch)
        # expect: py-cuda-amp
        with cuda_amp.autocast(enabled=True):
            loss = loss + self.model(batch)
        # expect: py-cuda-amp
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = loss + self.model(batch)
        # expect: py-cuda-amp
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            loss = loss + self.model(batch)
        # expect: py-cuda-amp
        with t.amp.autocast("cuda", enabled=True):
            loss = loss + self.model(batch)
        # expect: py-cuda-amp
        with torch_autocast("cuda"):
            loss = loss + self.model(batch)
        return loss


class Block(torch.nn.Module):
    # expect: py-cuda-amp
    @torch.cuda.amp.autocast()
    def forward(self, x):
        return x * 2


class MyFn(torch.autograd.Function):
    @staticmethod
    # expect: py-cuda-amp
    @torch.cuda.amp.custom_fwd(cast_inputs=torch.float32)
    def forward(ctx, x):
        return x

    @staticmethod
    # expect: py-cuda-amp
    @torch.cuda.amp.custom_bwd
    def backward(ctx, g):
        return g


class MyFn2(torch.autograd.Function):
    @staticmethod
    # expect: py-cuda-amp
    @torch.amp.custom_fwd(device_type="cuda")
    def forward(ctx, x):
        return x

    @staticmethod
    # ok: py-cuda-amp
    @torch.amp.custom_bwd(device_type="mps")
    def backward(ctx, g):
        return g


def guarded(model, x):
    if torch.cuda.is_available():
        # expect-guarded: py-cuda-amp
        with torch.autocast("cuda", dtype=torch.float16):
            return model(x)
    # expect-guarded: py-cuda-amp
    scaler = torch.cuda.amp.GradScaler() if torch.cuda.is_available() else None
    return scaler


# ok: py-cuda-amp
def device_agnostic(model, x, device, scaler: Optional[torch.cuda.amp.GradScaler] = None):
    # ok: py-cuda-amp
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = model(x)
    # ok: py-cuda-amp
    with torch.autocast(device_type="mps", dtype=torch.float16):
        y = model(x)
    # ok: py-cuda-amp
    with torch.autocast(device_type=device.type, dtype=torch.float16):
        y = model(x)
    # ok: py-cuda-amp
    with torch.amp.autocast(device.type):
        y = model(x)
    # ok: py-cuda-amp
    scaler = torch.amp.GradScaler(device.type)
    # ok: py-cuda-amp
    scaler = torch.amp.GradScaler("mps")
    # ok: py-cuda-amp
    scaler = AmpGradScaler(device=device.type, enabled=True)
    # ok: py-cuda-amp
    with torch.cpu.amp.autocast():
        y = model(x)
    # ok: py-cuda-amp
    with my_amp.autocast():
        y = model(x)
    # ok: py-cuda-amp
    print("torch.cuda.amp.autocast is deprecated, use torch.amp.autocast('cuda')")
    return y, scaler


def cli():
    parser = argparse.ArgumentParser()
    # ok: py-cuda-amp
    parser.add_argument("--amp", action="store_true", help="use torch.cuda.amp.autocast and GradScaler")
    return parser.parse_args()
