from .setup import init_distributed_mode, init_slurm

__all__ = ["init_distributed_mode", "init_slurm"]
