"""Fixture for py-non-blocking.

Docstrings may say x.to(device, non_blocking=True) freely.
"""
import argparse

import torch


def train_step(model, batch, device, optimizer):
    images, labels = batch
    # expect: py-non-blocking
    images = images.to(device, non_blocking=True)
    # expect: py-non-blocking
    labels = labels.cuda(non_blocking=True)
    # expect: py-non-blocking
    masks = batch[2].to(device=device, dtype=torch.float32, non_blocking=True)
    loss = model(images, labels, masks)
    loss.backward()
    optimizer.step()
    out = torch.empty_like(loss, device="cpu")
    # expect: py-non-blocking
    out.copy_(loss, non_blocking=True)
    # expect: py-non-blocking
    return out, {k: v.to(device, non_blocking=True) for k, v in batch[3].items()}


def move(batch, device):
    return [
        # expect: py-non-blocking
        t.to(device, non_blocking=True)
        for t in batch
    ]


def guarded(x, device):
    if torch.cuda.is_available():
        # expect-guarded: py-non-blocking
        x = x.to(device, non_blocking=True)
    # expect-guarded: py-non-blocking
    y = x.cuda(non_blocking=True) if torch.cuda.is_available() else x
    return x, y


def negatives(x, device, args):
    # ok: py-non-blocking
    a = x.to(device, non_blocking=False)
    # ok: py-non-blocking
    b = x.to(device, non_blocking=(device.type == "cuda"))
    # ok: py-non-blocking
    c = x.to(device, non_blocking=args.non_blocking)
    # ok: py-non-blocking
    d = x.to(device)
    # ok: py-non-blocking
    opts = {"non_blocking": True}
    # ok: py-non-blocking
    non_blocking = True
    # ok: py-non-blocking
    print("copy with non_blocking=True")
    return a, b, c, d, opts, non_blocking


parser = argparse.ArgumentParser()
# ok: py-non-blocking
parser.add_argument("--non_blocking", action="store_true", help="use .to(device, non_blocking=True)")
