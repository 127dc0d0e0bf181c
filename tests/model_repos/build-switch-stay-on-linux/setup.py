import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

# A build switch chooses which build to produce; it is no run-time fallback.
SKIP_CUDA_BUILD = os.getenv("FUSED_SKIP_CUDA_BUILD", "FALSE") == "TRUE"
ext_modules = []
if not SKIP_CUDA_BUILD:
    ext_modules.append(CUDAExtension("fused_cuda", ["fused/csrc/fused.cpp", "fused/csrc/fused_kernel.cu"]))

setup(name="fused", packages=["fused"], ext_modules=ext_modules, cmdclass={"build_ext": BuildExtension})
