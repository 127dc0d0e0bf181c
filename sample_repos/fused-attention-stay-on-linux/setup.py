"""Builds the fused RMSNorm extension. Needs nvcc from CUDA 12.1 and an sm_80+ GPU."""
from setuptools import find_packages, setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fused-vit",
    version="0.3.0",
    description="Vision transformer with FlashAttention-2, Triton and custom fused kernels",
    packages=find_packages(include=("kernels",)),
    py_modules=["model", "data", "train", "benchmark"],
    python_requires=">=3.10",
    ext_modules=[
        CUDAExtension(
            name="fused_rmsnorm_cuda",
            sources=["csrc/rmsnorm.cpp", "csrc/rmsnorm_kernel.cu"],
            extra_compile_args={
                "cxx": ["-O3"],
                "nvcc": [
                    "-O3",
                    "--use_fast_math",
                    "-gencode=arch=compute_80,code=sm_80",
                    "-gencode=arch=compute_90,code=sm_90",
                ],
            },
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
