import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension

# The CPU build always exists; the CUDA sources and WITH_CUDA are added where a toolkit and a GPU are.
ext_modules = [CppExtension("roiops._C", ["roiops/csrc/vision.cpp", "roiops/csrc/roi_pool_cpu.cpp"])]
if torch.cuda.is_available() and CUDA_HOME is not None:
    ext_modules = [
        CUDAExtension(
            "roiops._C",
            ["roiops/csrc/vision.cpp", "roiops/csrc/roi_pool_cpu.cpp", "roiops/csrc/roi_pool_cuda.cu"],
            define_macros=[("WITH_CUDA", None)],
        )
    ]

setup(name="roiops", packages=["roiops"], ext_modules=ext_modules, cmdclass={"build_ext": BuildExtension})
