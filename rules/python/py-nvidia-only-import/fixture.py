"""Fixture for py-nvidia-only-import.

Docstrings may say `import flash_attn` or `from xformers import ops` without being findings.
"""
import importlib
import os

import faiss
import numba
import torch
from numba import jit
from transformers.utils import is_flash_attn_2_available
from diffusers.utils import is_xformers_available
from torch.utils._triton import has_triton

# ok: py-nvidia-only-import
import cuda_utils
# ok: py-nvidia-only-import
from .triton_utils import autotune_config
# ok: py-nvidia-only-import
from . import apex_compat
# ok: py-nvidia-only-import
from mylab.models.apex import ApexHead
# ok: py-nvidia-only-import
import deepspeed

# expect: py-nvidia-only-import
from flash_attn import flash_attn_func, flash_attn_varlen_func
# expect: py-nvidia-only-import
from flash_attn.bert_padding import pad_input, unpad_input
# expect: py-nvidia-only-import
import triton
# expect: py-nvidia-only-import
import triton.language as tl
# expect: py-nvidia-only-import
from apex import amp
# expect: py-nvidia-only-import
from apex.normalization import FusedLayerNorm
# expect: py-nvidia-only-import
import bitsandbytes as bnb
# expect: py-nvidia-only-import
import cupy as cp
# expect: py-nvidia-only-import
import cupyx.scipy.ndimage
# expect: py-nvidia-only-import
import pycuda.autoinit
# expect: py-nvidia-only-import
from numba import cuda
# expect: py-nvidia-only-import
import numba.cuda as nb_cuda
# expect: py-nvidia-only-import
import tensorrt as trt
# expect: py-nvidia-only-import
import torch_tensorrt
# expect: py-nvidia-only-import
from nvidia.dali import pipeline_def
# expect: py-nvidia-only-import
import nvidia.dali.fn as fn
# expect: py-nvidia-only-import
import pynvml
# expect: py-nvidia-only-import
from deepspeed.ops.adam import FusedAdam
# expect: py-nvidia-only-import
from mamba_ssm import Mamba
# expect: py-nvidia-only-import
from causal_conv1d import causal_conv1d_fn
# expect: py-nvidia-only-import
from vllm import LLM, SamplingParams
# expect: py-nvidia-only-import
from auto_gptq import AutoGPTQForCausalLM
# expect: py-nvidia-only-import
from awq import AutoAWQForCausalLM
# expect: py-nvidia-only-import
import tinycudann as tcnn
# expect: py-nvidia-only-import
import spconv.pytorch as spconv
# expect: py-nvidia-only-import
import torchsparse.nn as spnn
# expect: py-nvidia-only-import
import MinkowskiEngine as ME
# expect: py-nvidia-only-import
import transformer_engine.pytorch as te
# expect: py-nvidia-only-import
from sageattention import sageattn
# expect: py-nvidia-only-import
import nvdiffrast.torch as dr
# expect: py-nvidia-only-import
from cuda import cudart
# expect: py-nvidia-only-import
import cutlass
# expect: py-nvidia-only-import
import cudf
# expect: py-nvidia-only-import
from flash_attn import (
    flash_attn_qkvpacked_func,
    flash_attn_kvpacked_func,
)

# A sentinel is no fallback: the module imported here is re-exported, and nothing here offers
# another path.
try:
    # expect: py-nvidia-only-import
    import flash_attn
except ImportError:
    flash_attn = None

try:
    # expect-guarded: py-nvidia-only-import
    import xformers.ops
    XFORMERS_AVAILABLE = True
except ModuleNotFoundError:
    XFORMERS_AVAILABLE = False

# A sentinel the file tests before every use is a fallback: the other branch is plain PyTorch.
try:
    # expect-guarded: py-nvidia-only-import
    from xformers.ops import memory_efficient_attention
except Exception:
    memory_efficient_attention = None


def attend(q, k, v):
    if memory_efficient_attention is not None:
        return memory_efficient_attention(q, k, v)
    return torch.nn.functional.scaled_dot_product_attention(q, k, v)


# The same shape, but the sentinel is called unguarded: the import is mandatory.
try:
    # expect: py-nvidia-only-import
    from xformers.ops import fmha
except ImportError:
    fmha = None


def block_diagonal(seqlens):
    return fmha.BlockDiagonalMask.from_seqlens(seqlens)

try:
    # expect: py-nvidia-only-import
    import triton
except ImportError:
    raise


def attention(q, k, v):
    # expect: py-nvidia-only-import
    from flash_attn.flash_attn_interface import flash_attn_func as fa
    return fa(q, k, v)


def gpu_memory_report():
    if torch.cuda.is_available():
        # expect-guarded: py-nvidia-only-import
        import pynvml as nv
        nv.nvmlInit()


def lazy():
    # todo-expect: py-nvidia-only-import
    mod = importlib.import_module("flash_attn")
    # ok: py-nvidia-only-import
    print("flash_attn is not installed; falling back to SDPA")
    # ok: py-nvidia-only-import
    use_xformers = is_xformers_available() and os.environ.get("USE_XFORMERS") == "1"
    # ok: py-nvidia-only-import
    index = faiss.IndexFlatL2(128)
    # ok: py-nvidia-only-import
    fast = jit(nopython=True)(lambda x: x + 1)
    return mod, use_xformers, index, fast, numba, has_triton, is_flash_attn_2_available
