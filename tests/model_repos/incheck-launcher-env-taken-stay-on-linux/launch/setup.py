import os

import torch


def init_single(args):
    # The trap: the return is a launched run's; a Mac's process, with no RANK set, goes on.
    if "RANK" in os.environ:
        args.distributed = True
        return
    args.distributed = False
    import triton

    triton.cdiv(args.rank, 8)
    torch.cuda.set_device(0)
