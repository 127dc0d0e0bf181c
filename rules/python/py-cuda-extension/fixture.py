"""Fixture for py-cuda-extension (shaped like a setup.py and a JIT loader).

Docstrings may say CUDAExtension("ops", ["ops.cu"]) or load(sources=["k.cu"]) freely.
"""
import os

import torch
import torch.utils.cpp_extension as cpp_ext
from setuptools import setup
from torch.utils import cpp_extension
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension, load, load_inline

HERE = os.path.dirname(__file__)


def get_extensions(args):
    extensions = [
        # expect: py-cuda-extension
        CUDAExtension(
            name="deform_conv_cuda",
            sources=["src/deform_conv.cpp", "src/deform_conv_kernel.cu"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "--use_fast_math"]},
        ),
        # expect: py-cuda-extension
        cpp_extension.CUDAExtension("nms_cuda", ["src/nms.cpp", "src/nms_kernel.cu"]),
    ]
    # A build switch (FORCE_CUDA) chooses which build to produce: no run-time fallback, no guard.
    if os.environ.get("FORCE_CUDA") == "1":
        # expect: py-cuda-extension
        extensions.append(CUDAExtension("roi_align", ["src/roi_align.cu"]))
    # Beside a toolkit check it is the way to force that build on a machine without a GPU, which
    # a Mac's build never sets: the toolkit check still guards.
    if CUDA_HOME is not None or os.environ.get("FORCE_CUDA") == "1":
        # expect-guarded: py-cuda-extension
        extensions.append(CUDAExtension("roi_pool", ["src/roi_pool.cu"]))
    # expect-guarded: py-cuda-extension
    ext_cls = CUDAExtension if torch.cuda.is_available() else CppExtension
    # ok: py-cuda-extension
    extensions.append(CppExtension("cpu_ops", ["src/cpu_ops.cpp"]))
    return extensions


def jit_load():
    # expect: py-cuda-extension
    fused = load(name="fused_bias_act", sources=[os.path.join(HERE, "fused.cpp"), os.path.join(HERE, "fused_kernel.cu")])
    # expect: py-cuda-extension
    upfirdn = cpp_ext.load("upfirdn2d", [os.path.join(HERE, "upfirdn2d.cpp"), os.path.join(HERE, "upfirdn2d_kernel.cu")])
    # expect: py-cuda-extension
    lltm = cpp_extension.load(name="lltm", sources=["lltm.cpp"], with_cuda=True)
    # expect: py-cuda-extension
    inline = load_inline(name="inline_ext", cpp_sources=CPP_SRC, cuda_sources=CUDA_SRC, functions=["add"])
    # todo-expect: py-cuda-extension
    from_list = load(name="from_list", sources=KERNEL_SOURCES)
    # Flags for nvcc say the sources hold CUDA, whatever the list is.
    # expect: py-cuda-extension
    with_flags = cpp_extension.load(name="fused", sources=KERNEL_SOURCES, extra_cuda_cflags=["-O3"])
    # ok: py-cuda-extension
    cpu_flags = cpp_extension.load(name="fused_cpu", sources=KERNEL_SOURCES, extra_cflags=["-O3"])
    return fused, upfirdn, lltm, inline, from_list, with_flags, cpu_flags


def guarded_load():
    if torch.cuda.is_available():
        # expect-guarded: py-cuda-extension
        return load(name="k", sources=["k.cpp", "k.cu"])
    # ok: py-cuda-extension
    return load(name="k_cpu", sources=["k.cpp"])


def negatives(path):
    # ok: py-cuda-extension
    cpu = load(name="x", sources=["x.cpp"])
    # ok: py-cuda-extension
    cpu2 = cpp_extension.load(name="y", sources=["y.cpp", "y_utils.cpp"], with_cuda=False)
    # ok: py-cuda-extension
    inline_cpu = load_inline(name="z", cpp_sources=CPP_SRC, functions=["add"])
    # ok: py-cuda-extension
    state = torch.load("model.pt", map_location="cpu")
    # ok: py-cuda-extension
    cfg = torch.load(os.path.join(path, "kernel.cu.pt"))
    # ok: py-cuda-extension
    print("building CUDAExtension kernel.cu requires nvcc")
    # ok: py-cuda-extension
    has_cuda = CUDA_HOME is not None
    return cpu, cpu2, inline_cpu, state, cfg, has_cuda


CPP_SRC = "torch::Tensor add(torch::Tensor a, torch::Tensor b);"
CUDA_SRC = "__global__ void add_kernel(float* a) {}"
KERNEL_SOURCES = ["a.cpp", "a.cu"]

setup(
    name="ops",
    ext_modules=get_extensions(None),
    # ok: py-cuda-extension
    cmdclass={"build_ext": BuildExtension},
)
