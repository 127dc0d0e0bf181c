"""Train a small convolutional classifier on MNIST.

Runs on Apple Silicon (mps), an NVIDIA card (cuda) or plain cpu; nothing here
assumes a cuda build of PyTorch.
"""
import argparse
import logging
import time
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from tqdm import tqdm

from data import build_loaders
from model import SmallConvNet

try:
    import apex  # optional: gives us FusedAdam on cuda machines
    from apex.optimizers import FusedAdam
except ImportError:
    apex = None
    FusedAdam = None

log = logging.getLogger("mnist")

# CUDA graphs need static shapes and a cuda device; keep them off everywhere.
use_cuda_graphs = False


@dataclass
class TrainConfig:
    epochs: int = 3
    batch_size: int = 128
    lr: float = 1e-3
    device: str = "auto"
    data_dir: str = "./data"
    checkpoint: str = "mnist_convnet.pt"


def pick_device() -> str:
    """Return "mps" if available, then "cuda", and fall back to "cpu"."""
    if torch.backends.mps.is_available():
        return "mps"
    elif torch.cuda.is_available():
        return "cuda"
    return "cpu"


def _log_cuda_stats(device: torch.device) -> None:
    """Log peak memory when running on cuda; a no-op on mps and cpu."""
    if device.type == "cuda":
        torch.cuda.synchronize()
        peak_mib = torch.cuda.max_memory_allocated() / 2**20
        log.info("cuda peak memory: %.1f MiB", peak_mib)


def build_optimizer(model: torch.nn.Module, cfg: TrainConfig, device: torch.device):
    # apex's fused kernels only exist for cuda; everything else uses plain Adam.
    if apex is not None and device.type == "cuda":
        return FusedAdam(model.parameters(), lr=cfg.lr)
    return torch.optim.Adam(model.parameters(), lr=cfg.lr)


def run_epoch(model, loader, device, optimizer=None) -> float:
    """One pass over `loader`; trains when an optimizer is given. Returns accuracy."""
    model.train(optimizer is not None)
    correct, seen = 0, 0
    for images, labels in tqdm(loader, leave=False):
        images, labels = images.to(device), labels.to(device)
        with torch.set_grad_enabled(optimizer is not None):
            logits = model(images)
            loss = F.cross_entropy(logits, labels)
        if optimizer is not None:
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        correct += (logits.argmax(dim=1) == labels).sum().item()
        seen += labels.numel()
    return correct / max(seen, 1)


def parse_args() -> TrainConfig:
    p = argparse.ArgumentParser(description="MNIST baseline (runs on mps, cuda or cpu)")
    p.add_argument("--epochs", type=int, default=TrainConfig.epochs)
    p.add_argument("--batch-size", type=int, default=TrainConfig.batch_size)
    p.add_argument("--lr", type=float, default=TrainConfig.lr)
    p.add_argument("--device", default="auto",
                   help="auto, mps, cuda or cpu; auto prefers mps, then cuda")
    p.add_argument("--data-dir", default=TrainConfig.data_dir)
    a = p.parse_args()
    return TrainConfig(a.epochs, a.batch_size, a.lr, a.device, a.data_dir)


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    cfg = parse_args()
    torch.manual_seed(0)  # same initialisation on every backend
    device = torch.device(pick_device() if cfg.device == "auto" else cfg.device)
    log.info("training on %s (cuda graphs: %s)", device, use_cuda_graphs)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
    train_loader, test_loader = build_loaders(cfg.data_dir, cfg.batch_size)
    model = SmallConvNet().to(device)
    optimizer = build_optimizer(model, cfg, device)
    for epoch in range(cfg.epochs):
        start = time.perf_counter()
        train_acc = run_epoch(model, train_loader, device, optimizer)
        test_acc = run_epoch(model, test_loader, device)
        log.info("epoch %d  train %.4f  test %.4f  (%.1fs)", epoch, train_acc, test_acc, time.perf_counter() - start)
        _log_cuda_stats(device)

    torch.save({"model": model.state_dict(), "config": cfg.__dict__}, cfg.checkpoint)
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
    print(f"saved {cfg.checkpoint}; no cuda-specific state is stored in the file")


if __name__ == "__main__":
    main()
