"""Fixture for py-pin-memory.

Docstrings may say DataLoader(..., pin_memory=True) or batch.pin_memory() freely.
"""
import argparse

import torch
from torch.utils.data import DataLoader
from torch.utils.data import DataLoader as DL


class CustomBatch:
    def __init__(self, data):
        self.inp = torch.stack([d[0] for d in data])

    # ok: py-pin-memory
    def pin_memory(self):
        # expect: py-pin-memory
        self.inp = self.inp.pin_memory()
        return self


def build_loaders(train_set, val_set, args):
    # expect: py-pin-memory
    train = DataLoader(train_set, batch_size=args.bs, shuffle=True, num_workers=8, pin_memory=True)
    val = DL(
        val_set,
        batch_size=args.bs,
        # expect: py-pin-memory
        pin_memory=True,
    )
    loader_kwargs = dict(
        num_workers=4,
        # expect: py-pin-memory
        pin_memory=True,
    )
    return train, val, loader_kwargs


def staging(n, device):
    # expect: py-pin-memory
    buf = torch.empty(n, 1024, pin_memory=True)
    # expect: py-pin-memory
    host = torch.zeros(n).pin_memory()
    # expect: py-pin-memory
    pinned = torch.randn(n).pin_memory().to(device, non_blocking=True)
    return buf, host, pinned


def guarded(batch, device, train_set):
    # Pinning only for CUDA is the rule's own fix: nothing is left to report.
    if torch.cuda.is_available():
        # ok: py-pin-memory
        batch = batch.pin_memory()
    # ok: py-pin-memory
    batch = batch.pin_memory() if device.type == "cuda" else batch
    return batch


def negatives(train_set, args, device):
    # ok: py-pin-memory
    a = DataLoader(train_set, batch_size=32, pin_memory=False)
    # ok: py-pin-memory
    b = DataLoader(train_set, batch_size=32, pin_memory=torch.cuda.is_available())
    # ok: py-pin-memory
    c = DataLoader(train_set, batch_size=32, pin_memory=args.pin_memory)
    # ok: py-pin-memory
    d = DataLoader(train_set, pin_memory=(device.type == "cuda"))
    # ok: py-pin-memory
    config = {"pin_memory": True, "num_workers": 4}
    # ok: py-pin-memory
    pin_memory = config["pin_memory"]
    # ok: py-pin-memory
    print("pin_memory=True is ignored on MPS")
    # ok: py-pin-memory
    e = train_set.is_pinned()
    return a, b, c, d, config, pin_memory, e


parser = argparse.ArgumentParser()
# ok: py-pin-memory
parser.add_argument("--pin_memory", action="store_true", help="DataLoader(pin_memory=True)")
