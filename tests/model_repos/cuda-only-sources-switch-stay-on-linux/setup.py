import os

import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension

# The same switch between a CppExtension and a CUDAExtension, but every source is CUDA: without
# CUDA the CppExtension has nothing to compile, so there is no CPU build.
extension = CppExtension
if (torch.cuda.is_available() and CUDA_HOME is not None) or os.getenv("FORCE_CUDA", "0") == "1":
    extension = CUDAExtension

setup(
    name="fastnorm",
    packages=["fastnorm"],
    ext_modules=[extension("fastnorm._C", ["fastnorm/csrc/norm_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
