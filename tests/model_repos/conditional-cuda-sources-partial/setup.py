import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension

# The CPU build always exists; the CUDA sources are added only where a toolkit and a GPU are.
ext_modules = [CppExtension("fastnorm._C", ["fastnorm/csrc/norm.cpp"])]
if torch.cuda.is_available() and CUDA_HOME is not None:
    ext_modules = [CUDAExtension("fastnorm._C", ["fastnorm/csrc/norm.cpp", "fastnorm/csrc/norm_kernel.cu"])]

setup(name="fastnorm", packages=["fastnorm"], ext_modules=ext_modules, cmdclass={"build_ext": BuildExtension})
