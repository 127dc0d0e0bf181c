import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension

# Every op dispatches through the extension's own device registry; the CPU build registers the
# CPU implementations (and an MPS one for nms), the CUDA build adds the CUDA ones.
ext_modules = [
    CppExtension(
        "boxops._ext",
        ["boxops/csrc/pybind.cpp", "boxops/csrc/nms.cpp", "boxops/csrc/box_iou.cpp", "boxops/csrc/roi_align.cpp",
         "boxops/csrc/cpu/nms_cpu.cpp", "boxops/csrc/cpu/box_iou_cpu.cpp", "boxops/csrc/mps/nms_mps.mm"],
    )
]
if torch.cuda.is_available() and CUDA_HOME is not None:
    ext_modules = [
        CUDAExtension(
            "boxops._ext",
            ["boxops/csrc/pybind.cpp", "boxops/csrc/nms.cpp", "boxops/csrc/box_iou.cpp", "boxops/csrc/roi_align.cpp",
             "boxops/csrc/cpu/nms_cpu.cpp", "boxops/csrc/cpu/box_iou_cpu.cpp", "boxops/csrc/cuda/cudabind.cpp",
             "boxops/csrc/cuda/box_kernels.cu"],
            define_macros=[("WITH_CUDA", None)],
        )
    ]

setup(name="boxops", packages=["boxops"], ext_modules=ext_modules, cmdclass={"build_ext": BuildExtension})
