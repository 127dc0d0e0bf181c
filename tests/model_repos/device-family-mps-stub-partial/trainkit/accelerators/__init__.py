from trainkit.accelerators.base import Accelerator
from trainkit.accelerators.cpu import CPUAccelerator
from trainkit.accelerators.cuda import CUDAAccelerator
from trainkit.accelerators.mps import MPSAccelerator

ACCELERATORS = {"cpu": CPUAccelerator, "cuda": CUDAAccelerator, "mps": MPSAccelerator}
