"""Training setup that tunes cuDNN.

Docstrings that mention torch.backends.cudnn.benchmark are not findings.
"""
import argparse
import random

import numpy as np
import torch
import torch.backends.cudnn as cudnn
from torch.backends import cuda as backends_cuda
import torch as t


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    # expect: py-cudnn-flags
    torch.backends.cudnn.deterministic = True
    # expect: py-cudnn-flags
    torch.backends.cudnn.benchmark = False


def speed_setup(args):
    # expect: py-cudnn-flags
    cudnn.benchmark = True
    # expect: py-cudnn-flags
    torch.backends.cuda.matmul.allow_tf32 = True
    # expect: py-cudnn-flags
    torch.backends.cudnn.allow_tf32 = True
    # expect: py-cudnn-flags
    backends_cuda.enable_flash_sdp(True)
    # expect: py-cudnn-flags
    t.backends.cudnn.enabled = args.cudnn
    # ok: py-cudnn-flags
    torch.set_float32_matmul_precision("high")
    # ok: py-cudnn-flags
    torch.use_deterministic_algorithms(True)


def attention(q, k, v):
    # expect: py-cudnn-flags
    with torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v)


def report():
    # expect: py-cudnn-flags
    print("cudnn benchmark:", torch.backends.cudnn.benchmark)
    # ok: py-cudnn-flags
    print("set torch.backends.cudnn.benchmark = True for speed")


def guarded_setup():
    if torch.cuda.is_available():
        # expect-guarded: py-cudnn-flags
        torch.backends.cudnn.benchmark = True
    # ok: py-cudnn-flags
    if torch.backends.cudnn.is_available():
        # expect-guarded: py-cudnn-flags
        cudnn.deterministic = True


def negatives(config):
    # ok: py-cudnn-flags
    use_mps = torch.backends.mps.is_available()
    # ok: py-cudnn-flags
    built = torch.backends.mps.is_built()
    # ok: py-cudnn-flags
    cudnn_benchmark = True
    # ok: py-cudnn-flags
    config.cudnn.benchmark = cudnn_benchmark
    # ok: py-cudnn-flags
    cuda_built = torch.backends.cuda.is_built()
    # ok: py-cudnn-flags
    version = torch.backends.cudnn.version()
    # ok: py-cudnn-flags
    torch.backends.opt_einsum.enabled = True
    return use_mps, built, cuda_built, version


def parse():
    parser = argparse.ArgumentParser()
    # ok: py-cudnn-flags
    parser.add_argument("--cudnn-benchmark", action="store_true", help="torch.backends.cudnn.benchmark")
    return parser.parse_args()
