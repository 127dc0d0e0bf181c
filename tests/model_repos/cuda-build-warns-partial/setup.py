import glob
import warnings

import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension


def get_extensions():
    # A CppExtension by default, a CUDAExtension with a GPU and a toolkit; the build without them
    # warns and goes on with the CPU build.
    sources = glob.glob("dcnops/csrc/*.cpp")
    extension = CppExtension
    define_macros = []
    if torch.cuda.is_available() and CUDA_HOME is not None:
        extension = CUDAExtension
        sources += glob.glob("dcnops/csrc/*.cu")
        define_macros += [("WITH_CUDA", None)]
    else:
        warnings.warn("CUDA is not available: building the CPU kernels only")
    return [extension("dcnops._C", sources, define_macros=define_macros)]


setup(name="dcnops", packages=["dcnops"], ext_modules=get_extensions(), cmdclass={"build_ext": BuildExtension})
