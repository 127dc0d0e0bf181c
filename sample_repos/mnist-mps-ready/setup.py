"""Packaging for the MNIST baseline. Pure Python: nothing is compiled, no cuda toolkit needed."""
from setuptools import setup

setup(
    name="mnist-mps-ready",
    version="0.2.0",
    description="Device-agnostic MNIST baseline for the lab's teaching material",
    py_modules=["train", "model", "data"],
    python_requires=">=3.9",
    install_requires=[
        "torch>=2.1",
        "torchvision>=0.16",
        "numpy>=1.24",
        "tqdm>=4.65",
    ],
    entry_points={"console_scripts": ["mnist-train=train:main"]},
)
