"""Builds the optional fused RMSNorm kernel when a CUDA toolkit is present."""
import os

from setuptools import find_packages, setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CUDAExtension

ext_modules = []
if CUDA_HOME is not None and os.environ.get("RMSNORM_NO_EXT") != "1":
    ext_modules.append(
        CUDAExtension(
            name="rmsnorm_ext",
            sources=["csrc/rmsnorm.cpp", "csrc/rmsnorm_kernel.cu"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "--use_fast_math"]},
        )
    )

setup(
    name="rmsnorm-extension",
    version="0.2.0",
    packages=find_packages(),
    ext_modules=ext_modules,
    cmdclass={"build_ext": BuildExtension},
    install_requires=["torch>=2.1", "numpy"],
)
