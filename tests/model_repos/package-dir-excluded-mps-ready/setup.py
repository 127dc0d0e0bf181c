from setuptools import find_packages, setup

setup(
    name="fastkit",
    version="0.1.0",
    package_dir={"": "lib"},
    packages=find_packages(where="lib", exclude=["gpu_bench", "gpu_bench.*"]),
    install_requires=["torch>=2.1"],
)
