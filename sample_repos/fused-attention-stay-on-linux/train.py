"""Multi-GPU training for FusedViT. Launch with torchrun (see scripts/train.slurm)."""
import argparse
import logging
import os
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from data import build_train_loader
from model import FusedViT, ViTConfig

log = logging.getLogger("fused_vit")


class StreamPrefetcher:
    """Copies the next batch to the GPU on a side stream while the current one trains."""

    def __init__(self, loader, device):
        self.loader, self.device = iter(loader), device
        self.stream = torch.cuda.Stream()
        self._preload()

    def _preload(self):
        try:
            images, labels = next(self.loader)
        except StopIteration:
            self.batch = None
            return
        with torch.cuda.stream(self.stream):
            self.batch = (images.to(self.device, non_blocking=True),
                          labels.to(self.device, non_blocking=True))

    def __iter__(self):
        return self

    def __next__(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        if self.batch is None:
            raise StopIteration
        batch = self.batch
        for t in batch:
            t.record_stream(torch.cuda.current_stream())
        self._preload()
        return batch


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--data", required=True)
    p.add_argument("--epochs", type=int, default=90)
    p.add_argument("--batch-size", type=int, default=128, help="per-GPU batch size")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--out", default="checkpoints")
    return p.parse_args()


def main():
    args = parse_args()
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    torch.distributed.init_process_group(backend="nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    logging.basicConfig(level=logging.INFO if rank == 0 else logging.WARNING)
    device = torch.device("cuda", local_rank)

    model = FusedViT(ViTConfig())
    model = torch.nn.SyncBatchNorm.convert_sync_batchnorm(model).to(device)
    model = DistributedDataParallel(model, device_ids=[local_rank])
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.05)
    scaler = torch.cuda.amp.GradScaler()
    loader, sampler = build_train_loader(args.data, args.batch_size, world, rank)

    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        start = time.time()
        for step, (images, labels) in enumerate(StreamPrefetcher(loader, device)):
            with torch.autocast("cuda", dtype=torch.float16):
                loss = F.cross_entropy(model(images), labels, label_smoothing=0.1)
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
            if step % 100 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
        log.info("epoch %d took %.1fs", epoch, time.time() - start)
        if rank == 0:
            os.makedirs(args.out, exist_ok=True)
            torch.save(model.module.state_dict(), os.path.join(args.out, f"epoch{epoch}.pt"))
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
