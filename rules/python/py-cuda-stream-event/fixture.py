"""Overlap host-to-device copies with compute.

torch.cuda.Stream() in a docstring is not a finding.
"""
import os
import threading
from typing import Optional

import cupy
import torch
import torch as t
from numba import cuda
from torch.cuda import Event, current_stream


def stream_batches(loader):
    # ok: py-cuda-stream-event
    for batch in loader:
        yield batch


class Prefetcher:
    def __init__(self, loader):
        self.loader = loader
        # expect: py-cuda-stream-event
        self.stream = torch.cuda.Stream()
        # expect: py-cuda-stream-event
        self.hi_prio = t.cuda.Stream(priority=-1)

    def preload(self, batch):
        # expect: py-cuda-stream-event
        with torch.cuda.stream(self.stream):
            batch = batch.to("cuda", non_blocking=True)
        return batch

    def next(self, batch):
        # expect: py-cuda-stream-event
        torch.cuda.current_stream().wait_stream(self.stream)
        # expect: py-cuda-stream-event
        batch.record_stream(current_stream())
        # Streams of other backends have the same methods, so `.wait_stream` alone is not
        # evidence; the CUDA stream it waits on is flagged where it is created.
        # todo-expect: py-cuda-stream-event
        self.stream.wait_stream(self.hi_prio)
        # ok: py-cuda-stream-event
        torch.npu.current_stream(device=self.device).wait_stream(self.stream)
        return batch


def timed(fn):
    # expect: py-cuda-stream-event
    start = torch.cuda.Event(enable_timing=True)
    # expect: py-cuda-stream-event
    end = Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    # ok: py-cuda-stream-event
    torch.cuda.synchronize()
    return start.elapsed_time(end)


def misc(s):
    # expect: py-cuda-stream-event
    default = torch.cuda.default_stream()
    # expect: py-cuda-stream-event
    torch.cuda.set_stream(s)
    # expect: py-cuda-stream-event
    ctx = torch.cuda.StreamContext(s)
    return default, ctx


def guarded(x):
    if torch.cuda.is_available():
        # expect-guarded: py-cuda-stream-event
        side = torch.cuda.Stream()
    # expect-guarded: py-cuda-stream-event
    ev = torch.cuda.Event() if torch.cuda.is_available() else torch.mps.Event()
    return x


def either_part_false_on_a_mac(x, is_rocm_pytorch):
    # Every part of the `or` is false on a Mac (a CUDA check, a ROCm build, a switch nobody sets
    # there): the branch is a CUDA path.
    if torch.cuda.is_available() or x.is_cuda:
        # expect-guarded: py-cuda-stream-event
        side = torch.cuda.Stream()
    if is_rocm_pytorch or torch.cuda.is_available() or os.getenv("FORCE_CUDA", "0") == "1":
        # expect-guarded: py-cuda-stream-event
        side = torch.cuda.Stream()
    if torch.version.hip is not None or x.is_cuda:
        # expect-guarded: py-cuda-stream-event
        side = torch.cuda.Stream()
    # Every part true on a Mac: what follows the early exit is a CUDA path.
    if not torch.cuda.is_available() and not x.is_cuda:
        return x
    # expect-guarded: py-cuda-stream-event
    return torch.cuda.Stream()


def one_part_may_hold_on_a_mac(x, use_fallback, ship):
    # An option a Mac user may set, or a name that only contains "hip": nothing certain about CUDA.
    if torch.cuda.is_available() or use_fallback:
        # expect: py-cuda-stream-event
        side = torch.cuda.Stream()
    if torch.cuda.is_available() or ship:
        # expect: py-cuda-stream-event
        side = torch.cuda.Stream()
    if not torch.cuda.is_available() and use_fallback:
        return x
    # expect: py-cuda-stream-event
    return torch.cuda.Stream()


# ok: py-cuda-stream-event
def negatives(x, stream: Optional[torch.cuda.Stream] = None):
    # ok: py-cuda-stream-event
    ev = torch.mps.Event(enable_timing=True)
    # ok: py-cuda-stream-event
    torch.mps.synchronize()
    # ok: py-cuda-stream-event
    done = threading.Event()
    # ok: py-cuda-stream-event
    cp_stream = cupy.cuda.Stream(non_blocking=True)
    # ok: py-cuda-stream-event
    nb_stream = cuda.stream()
    # ok: py-cuda-stream-event
    batches = list(stream_batches([x]))
    # ok: py-cuda-stream-event
    print("waiting on torch.cuda.current_stream()")
    return ev, done, cp_stream, nb_stream, batches
