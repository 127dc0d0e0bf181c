import os

import torch
import torch.distributed as dist


def init_distributed_mode(args):
    if "RANK" in os.environ and "WORLD_SIZE" in os.environ:
        args.rank = int(os.environ["RANK"])
        args.gpu = int(os.environ["LOCAL_RANK"])
    elif "SLURM_PROCID" in os.environ:
        args.rank = int(os.environ["SLURM_PROCID"])
        args.gpu = args.rank % torch.cuda.device_count()
    else:
        # No launcher set the variables: a single process, the run a Mac makes.
        args.distributed = False
        return
    args.distributed = True
    torch.cuda.set_device(args.gpu)
    dist.init_process_group(backend="nccl", rank=args.rank)


def init_slurm(args):
    if "RANK" not in os.environ and "SLURM_PROCID" not in os.environ:
        args.distributed = False
        return
    import triton

    triton.cdiv(args.rank, 8)
