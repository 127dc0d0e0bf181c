"""Fixture for py-float64.

Docstrings may say torch.float64, x.double() or dtype=torch.double without being findings.
"""
import argparse
import random

import numpy as np
import pandas as pd
import torch
import torch as t
from lightning import Trainer
from torch import float64
from transformers import AutoModelForCausalLM


def make_inputs(batch, device):
    # expect: py-float64
    x = torch.randn(batch, 3, dtype=torch.float64)
    # expect: py-float64
    y = torch.zeros(batch, dtype=t.double)
    # expect: py-float64
    z = torch.ones(batch, dtype=float64, device=device)
    # expect: py-float64
    w = x.to(torch.double)
    # expect: py-float64
    v = y.to(device, torch.float64)
    # expect: py-float64
    u = z.type(torch.DoubleTensor)
    # expect: py-float64
    legacy = torch.DoubleTensor(batch, 3)
    return x, y, z, w, v, u, legacy


def precise_loss(pred, target):
    # expect: py-float64
    diff = pred.double() - target.double()
    # expect: py-float64
    return (diff ** 2).mean().double().float()


class GaussianProcess(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        # expect: py-float64
        self.lengthscale = torch.nn.Parameter(torch.ones(n, dtype=torch.float64))
        # expect: py-float64
        self.to(torch.float64)

    def forward(self, x):
        # expect: py-float64
        return torch.cdist(x.double(), x.double())


def load_features(path, device):
    arr = np.load(path)
    # expect: py-float64
    feats = torch.from_numpy(arr.astype(np.float64)).to(device)
    # expect: py-float64
    labels = torch.tensor(np.asarray(arr[:, 0], dtype=np.double))
    # expect: py-float64
    weights = torch.as_tensor(np.ones(len(arr), dtype=np.float64), device=device)
    # todo-expect: py-float64
    raw = torch.from_numpy(np.load(path)).to(device)
    return feats, labels, weights, raw


def configure():
    # expect: py-float64
    torch.set_default_dtype(torch.float64)
    # expect: py-float64
    torch.set_default_tensor_type("torch.DoubleTensor")
    # expect: py-float64
    torch.set_default_tensor_type(torch.DoubleTensor)
    # expect: py-float64
    model = AutoModelForCausalLM.from_pretrained("gpt2", torch_dtype="float64")
    # expect: py-float64
    trainer = Trainer(accelerator="auto", precision="64-true")
    return model, trainer


def guarded(x, device):
    if torch.cuda.is_available():
        # expect-guarded: py-float64
        x = x.double()
    # expect-guarded: py-float64
    dtype = torch.float64 if device.type == "cuda" else torch.float32
    return x, dtype


def negatives(x, device, args):
    # ok: py-float64
    a = torch.randn(4, dtype=torch.float32)
    # ok: py-float64
    b = x.float() * 2.0
    # ok: py-float64
    c = torch.tensor(3.0, device=device)
    # ok: py-float64
    double_check = args.double_check
    # ok: py-float64
    if double_check:
        # ok: py-float64
        x = x.double_check()
    # ok: py-float64
    stats = np.zeros(10, dtype=np.float64)
    # ok: py-float64
    table = pd.read_csv("stats.csv", dtype="float64")
    # ok: py-float64
    mean = np.float64(stats.mean())
    # ok: py-float64
    arr = np.array([1.0, 2.0], dtype="float64")
    # ok: py-float64
    d = np.double(1.5)
    # ok: py-float64
    print("using float64 accumulation; call .double() if needed")
    # ok: py-float64
    h = torch.from_numpy(stats.astype(np.float32))
    # ok: py-float64
    trainer = Trainer(precision="bf16-mixed")
    # ok: py-float64
    model = AutoModelForCausalLM.from_pretrained("gpt2", torch_dtype="bfloat16")
    # ok: py-float64
    k = torch.tensor(stats.tolist(), dtype=torch.float32)
    # todo-ok: py-float64
    m = torch.tensor(stats.astype(np.float64), dtype=torch.float32)
    return a, b, c, stats, table, mean, arr, d, h, trainer, model, k, m


def float64_grid(n):
    return np.linspace(0.0, 1.0, n)


def float32_grid(n):
    return np.linspace(0.0, 1.0, n).astype(np.float32)


def numpy_to_device(path, device):
    grid = np.load(path).astype(float)
    # expect: py-float64
    a = torch.as_tensor(grid, device=device)
    steps = np.linspace(0, 1, 50)
    # expect: py-float64
    b = torch.from_numpy(steps).to(device)
    noise = np.random.randn(8, 3)
    # expect: py-float64
    c = torch.tensor(noise, device=device)
    # expect: py-float64
    d = torch.from_numpy(np.zeros((4, 4))).cuda()
    # expect: py-float64
    e = torch.from_numpy(np.array([0.5, 1.5, 2.5])).unsqueeze(0).to("mps")
    ramp = np.arange(0.0, 1.0, 0.1)
    # expect: py-float64
    f = torch.as_tensor(ramp, device=device)
    # expect: py-float64
    g = torch.from_numpy(float64_grid(16)).to(device)
    return a, b, c, d, e, f, g


def seeded_noise_to_device(seed, dim, device):
    # A random generator's draws are float64, like np.random.randn's.
    # expect: py-float64
    z = torch.from_numpy(np.random.RandomState(seed).randn(1, dim)).to(device)
    rng = np.random.default_rng(seed)
    # expect: py-float64
    w = torch.tensor(rng.normal(size=(4, dim)), device=device)
    # ok: py-float64
    k = torch.from_numpy(rng.integers(0, 10, size=4)).to(device)
    # ok: py-float64
    u = torch.from_numpy(rng.random((2, 2), dtype=np.float32)).to(device)
    # ok: py-float64
    v = torch.from_numpy(np.random.RandomState(seed).randn(1, dim)).float().to(device)
    # ok: py-float64
    s = torch.from_numpy(random.Random(seed).random()).to(device)
    return z, w, k, u, v, s


def numpy_to_device_negatives(path, device):
    grid = np.load(path).astype(np.float32)
    # ok: py-float64
    a = torch.as_tensor(grid, device=device)
    steps = np.linspace(0, 1, 50)
    # ok: py-float64
    b = torch.from_numpy(steps).float().to(device)
    # ok: py-float64
    c = torch.tensor(steps, dtype=torch.float32, device=device)
    # ok: py-float64
    cpu_only = torch.from_numpy(steps)
    # ok: py-float64
    g = torch.from_numpy(steps).to(device, torch.float32)
    idx = np.arange(10)
    # ok: py-float64
    d = torch.as_tensor(idx, device=device)
    labels = np.array([0, 1, 2])
    # ok: py-float64
    e = torch.from_numpy(labels).to(device)
    counts = np.zeros(5, dtype=np.int64)
    # ok: py-float64
    h = torch.as_tensor(counts, device=device)
    # ok: py-float64
    f = torch.from_numpy(float32_grid(16)).to(device)
    steps = steps.astype(np.float32)
    # ok: py-float64
    k = torch.from_numpy(steps).to(device)
    return a, b, c, cpu_only, g, d, e, h, f, k


def to_device(x, device):
    if device.type == "mps":
        x = x.float()
    return x.to(device)


def cast_for_device(x, device):
    if "mps" in str(device):
        x = x.to(torch.float32)
    return x.to(device)


def move_only(x, device):
    if device.type == "mps":
        x = x.contiguous()
    return x.to(device)


def through_helpers(x, stats, device):
    # ok: py-float64
    a = to_device(x.double(), device)
    # ok: py-float64
    b = cast_for_device(torch.from_numpy(stats.astype(np.float64)), device)
    # expect: py-float64
    c = move_only(x.double(), device)
    return a, b, c


def mps_aware(x):
    if x.device.type == "mps":
        return x.float()
    else:
        # expect-guarded: py-float64
        return x.double()


def mps_returns_early(x):
    if x.device.type == "mps":
        return x.float()
    # expect-guarded: py-float64
    return x.double()


def mps_check_that_returns_nothing_early(x):
    if x.device.type == "mps":
        x = x.float()
    # expect: py-float64
    return x.double()


class OrthogonalUpdate:
    def __init__(self, double_precision=True, normalize=True):
        self.double_precision = double_precision
        self.normalize = normalize

    def project(self, x, y):
        use_double, dtype = self.double_precision, x.dtype
        if use_double:
            # expect: py-float64
            x, y = x.double(), y.double()
        if self.normalize:
            # expect: py-float64
            y = y.to(torch.float64)
        return (x * y).to(dtype)


def dtype_checks(x):
    # ok: py-float64
    if x.dtype == torch.float64:
        return x.float()
    # ok: py-float64
    if x.dtype in (torch.float64, torch.double):
        return x.float()
    # ok: py-float64
    if x.dtype is not torch.double and x.dtype != (torch.float64):
        return x
    return x


parser = argparse.ArgumentParser()
# ok: py-float64
parser.add_argument("--double", action="store_true", help="use torch.float64 / .double()")


def not_tests_of_the_device(x, device):
    # Assignments that mention CUDA but test nothing do not make a flag.
    moved = x.cuda()
    if moved.dim() == 3:
        # expect: py-float64
        x = x.double()
    # Only the whole condition, its negation or a side of `or` says what a Mac takes.
    cpu = device == "cpu"
    is_mps = device == "mps"
    if not (cpu or is_mps):
        x = x.float()
    else:
        # expect: py-float64
        x = x.double()
    if x.device.type == "mps" and x.numel() == 0:
        return x
    # expect: py-float64
    y = x.double()
    if not (x.device.type == "mps"):
        return y
    # expect: py-float64
    return y.double()
