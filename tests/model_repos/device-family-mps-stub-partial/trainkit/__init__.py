from trainkit.accelerators import Accelerator, CPUAccelerator, CUDAAccelerator, MPSAccelerator
from trainkit.trainer import Trainer

__all__ = ["Accelerator", "CPUAccelerator", "CUDAAccelerator", "MPSAccelerator", "Trainer"]
