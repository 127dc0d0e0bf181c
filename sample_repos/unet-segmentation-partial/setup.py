"""Install with `pip install -e .`; training still expects an NVIDIA card (see README)."""
from setuptools import setup

setup(
    name="unet-segmentation",
    version="0.4.1",
    description="UNet baseline for nuclei segmentation in fluorescence microscopy tiles",
    py_modules=["model", "data", "train", "evaluate"],
    python_requires=">=3.9",
    install_requires=[
        "torch>=2.0",
        "torchvision>=0.15",
        "numpy>=1.24",
        "pillow>=9.5",
        "tqdm>=4.65",
    ],
    extras_require={"notebooks": ["matplotlib>=3.7", "jupyter"]},
)
