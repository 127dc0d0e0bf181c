import torch.distributed as dist

from tinynet import TinyNet

if __name__ == "__main__":
    dist.init_process_group("nccl")
    model = TinyNet()
