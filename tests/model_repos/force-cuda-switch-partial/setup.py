import glob
import os

import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension


def get_extensions():
    # The CPU build by default; the CUDA sources join it where a toolkit and a GPU are, or when a
    # user forces a CUDA build on a machine without a GPU (FORCE_CUDA=1).
    sources = glob.glob("fastnorm/csrc/*.cpp")
    extension = CppExtension
    define_macros = []
    if (torch.cuda.is_available() and CUDA_HOME is not None) or os.getenv("FORCE_CUDA", "0") == "1":
        extension = CUDAExtension
        sources += glob.glob("fastnorm/csrc/*.cu")
        define_macros += [("WITH_CUDA", None)]
    return [extension("fastnorm._C", sources, define_macros=define_macros)]


setup(name="fastnorm", packages=["fastnorm"], ext_modules=get_extensions(), cmdclass={"build_ext": BuildExtension})
