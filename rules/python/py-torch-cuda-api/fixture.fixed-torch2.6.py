"""Fixture for py-torch-cuda-api.

Docstrings may mention torch.cuda.synchronize() or torch.cuda.empty_cache() freely.
"""
import contextlib
import time

import cupy
import numba.cuda
import torch
import torch as t
from torch import cuda
from torch.cuda import max_memory_allocated, synchronize


def timed_step(model, x):
    # expect: py-torch-cuda-api
    if torch.accelerator.is_available():
        torch.accelerator.synchronize()
    # Target 2.6: empty_cache keeps the CUDA and MPS branches (no torch.accelerator memory functions in 2.6).
    # expect: py-torch-cuda-api
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
    elif torch.backends.mps.is_available():
        torch.mps.empty_cache()
    start = time.perf_counter()
    y = model(x)
    # expect: py-torch-cuda-api
    t.cuda.synchronize()
    # expect: py-torch-cuda-api
    synchronize()
    return y, time.perf_counter() - start


def memory_report(step):
    # expect: py-torch-cuda-api
    print(f"step {step}: {torch.cuda.memory_allocated() / 2**30:.2f} GiB")
    # expect: py-torch-cuda-api
    peak = max_memory_allocated()
    # expect: py-torch-cuda-api
    reserved = torch.cuda.memory_reserved(0)
    # expect: py-torch-cuda-api
    stats = torch.cuda.memory_stats()
    # expect: py-torch-cuda-api
    print(torch.cuda.memory_summary())
    # expect: py-torch-cuda-api
    free, total = torch.cuda.mem_get_info()
    # expect: py-torch-cuda-api
    torch.cuda.reset_peak_memory_stats()
    # expect: py-torch-cuda-api
    cuda.empty_cache()
    # expect: py-torch-cuda-api
    torch.cuda.set_per_process_memory_fraction(0.9)
    # expect: py-torch-cuda-api
    torch.cuda.memory._record_memory_history(max_entries=100000)
    return peak, reserved, stats, free, total


def setup(local_rank, seed):
    # expect: py-torch-cuda-api
    torch.cuda.set_device(local_rank)
    # expect: py-torch-cuda-api
    rank = torch.cuda.current_device()
    # expect: py-torch-cuda-api
    n_gpu = torch.cuda.device_count()
    # expect: py-torch-cuda-api
    name = torch.cuda.get_device_name(0)
    # expect: py-torch-cuda-api
    total_mem = torch.cuda.get_device_properties(0).total_memory
    # expect: py-torch-cuda-api
    major, minor = torch.cuda.get_device_capability()
    # expect: py-torch-cuda-api
    use_bf16 = torch.cuda.is_bf16_supported()
    torch.manual_seed(seed)
    # expect: py-torch-cuda-api
    torch.cuda.manual_seed(seed)
    # expect: py-torch-cuda-api
    torch.cuda.manual_seed_all(seed)
    # expect: py-torch-cuda-api
    state = torch.cuda.get_rng_state()
    # expect: py-torch-cuda-api
    torch.cuda.set_rng_state(state)
    # expect: py-torch-cuda-api
    torch.cuda.ipc_collect()
    # expect: py-torch-cuda-api
    with torch.cuda.device(local_rank):
        pass
    return rank, n_gpu, name, total_mem, major, minor, use_bf16


def profile(model, x):
    # expect: py-torch-cuda-api
    torch.cuda.nvtx.range_push("forward")
    y = model(x)
    # expect: py-torch-cuda-api
    torch.cuda.nvtx.range_pop()
    # expect: py-torch-cuda-api
    with torch.cuda.nvtx.range("backward"):
        y.sum().backward()
    # expect: py-torch-cuda-api
    torch.cuda.nvtx.mark("step done")
    return y


def legacy(x):
    # expect: py-torch-cuda-api
    buf = torch.cuda.FloatTensor(3, 4)
    # expect: py-torch-cuda-api
    if isinstance(x, torch.cuda.HalfTensor):
        x = x.float()
    # expect: py-torch-cuda-api
    idx = x.type(torch.cuda.LongTensor)
    # expect: py-torch-cuda-api
    torch.set_default_tensor_type(torch.cuda.FloatTensor)
    # expect: py-torch-cuda-api
    sync = torch.cuda.synchronize
    try:
        y = x * 2
    # expect: py-torch-cuda-api
    except torch.cuda.OutOfMemoryError:
        y = None
    return buf, idx, sync, y


def guarded(x, device):
    if torch.cuda.is_available():
        # expect-guarded: py-torch-cuda-api
        torch.cuda.synchronize()
    # expect-guarded: py-torch-cuda-api
    mem = torch.cuda.memory_allocated() if torch.cuda.is_available() else 0
    # A CUDA branch beside an MPS one: device-agnostic code, nothing to report.
    if device.type == "cuda":
        # ok: py-torch-cuda-api
        torch.cuda.empty_cache()
    elif device.type == "mps":
        torch.mps.empty_cache()
    if not torch.cuda.is_available():
        return mem
    # expect-guarded: py-torch-cuda-api
    torch.cuda.reset_peak_memory_stats()
    return mem


def negatives(x, model):
    # ok: py-torch-cuda-api
    ok = torch.cuda.is_available()
    # ok: py-torch-cuda-api
    ready = torch.cuda.is_initialized()
    # ok: py-torch-cuda-api
    scaler = torch.cuda.amp.GradScaler()
    # ok: py-torch-cuda-api
    with torch.cuda.amp.autocast():
        y = model(x)
    # ok: py-torch-cuda-api
    stream = torch.cuda.Stream()
    # ok: py-torch-cuda-api
    with torch.cuda.stream(stream):
        y = model(x)
    # ok: py-torch-cuda-api
    torch.cuda.current_stream().wait_stream(stream)
    # ok: py-torch-cuda-api
    start = torch.cuda.Event(enable_timing=True)
    # ok: py-torch-cuda-api
    graph = torch.cuda.CUDAGraph()
    # ok: py-torch-cuda-api
    with torch.cuda.graph(graph):
        y = model(x)
    # ok: py-torch-cuda-api
    step = torch.cuda.make_graphed_callables(model, (x,))
    # ok: py-torch-cuda-api
    pool = torch.cuda.graph_pool_handle()
    # ok: py-torch-cuda-api
    torch.backends.cuda.matmul.allow_tf32 = True
    # ok: py-torch-cuda-api
    torch.backends.cudnn.benchmark = True
    # ok: py-torch-cuda-api
    torch.mps.synchronize()
    # ok: py-torch-cuda-api
    numba.cuda.synchronize()
    # ok: py-torch-cuda-api
    n = cupy.cuda.runtime.getDeviceCount()
    # ok: py-torch-cuda-api
    cupy.cuda.Device(0).synchronize()
    # ok: py-torch-cuda-api
    print("call torch.cuda.synchronize() before timing")
    # ok: py-torch-cuda-api
    on_gpu = x.is_cuda
    # ok: py-torch-cuda-api
    ctx = contextlib.nullcontext()
    return ok, ready, scaler, y, start, step, pool, n, on_gpu, ctx


class Runner:
    def __init__(self, backend):
        # ok: py-torch-cuda-api
        self.cuda_sync = backend.synchronize

    def step(self, backend):
        # ok: py-torch-cuda-api
        backend.cuda.synchronize()
        # ok: py-torch-cuda-api
        self.cuda_sync()


def is_torch_mps_available():
    return torch.backends.mps.is_available()


def describe_accelerator():
    # A name the file assigns a CUDA test to is that test where a condition reads it.
    pt_cuda_available = torch.cuda.is_available()
    if pt_cuda_available:
        # expect-guarded: py-torch-cuda-api
        name = torch.cuda.get_device_name()
    cpu_only = not torch.cuda.is_available()
    if cpu_only:
        # expect: py-torch-cuda-api
        name = torch.cuda.get_device_name()
    # A library's MPS probe makes the else branch one a Mac never takes.
    if is_torch_mps_available():
        used = torch.mps.current_allocated_memory()
    else:
        # expect-guarded: py-torch-cuda-api
        used = torch.cuda.memory_allocated()
    return name, used


def memory_by_backend(backend):
    # The alternatives after an `elif` that tests for MPS are not taken on a Mac; those before are.
    if backend == "rocm":
        # expect: py-torch-cuda-api
        used = torch.cuda.memory_allocated()
    elif is_torch_mps_available():
        used = torch.mps.current_allocated_memory()
    elif backend == "hip":
        # expect-guarded: py-torch-cuda-api
        used = torch.cuda.memory_allocated()
    else:
        # expect-guarded: py-torch-cuda-api
        used = torch.cuda.memory_allocated()
    return used


def select_by_flags(device):
    # Names assigned an MPS test: `cpu or mps` holds on a Mac that chose MPS.
    cpu = device == "cpu"
    mps = device == "mps"
    if cpu or mps:
        name = "local"
    else:
        # expect-guarded: py-torch-cuda-api
        name = torch.cuda.get_device_name()
    not_mps = device != "mps"
    if not_mps:
        name = "other"
    else:
        # expect: py-torch-cuda-api
        name = torch.cuda.get_device_name()
    return name
