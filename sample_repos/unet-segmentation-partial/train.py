"""Train the UNet on the tile dataset with mixed precision.

Example:
    python train.py --data /data/tiles --epochs 50 --batch-size 16 --compile
"""
import argparse
import logging
import random
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch.cuda.amp import autocast

from data import make_loaders
from model import UNet

log = logging.getLogger("unet")


def set_seed(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)


def dice_loss(logits, target, eps: float = 1e-6):
    probs = logits.softmax(dim=1)
    onehot = F.one_hot(target, probs.shape[1]).permute(0, 3, 1, 2).to(probs.dtype)
    inter = (probs * onehot).sum(dim=(0, 2, 3))
    union = probs.sum(dim=(0, 2, 3)) + onehot.sum(dim=(0, 2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


@torch.no_grad()
def validate(model, loader, num_classes: int) -> float:
    """Mean IoU over the validation set; counts are kept in float64."""
    model.eval()
    inter = torch.zeros(num_classes, dtype=torch.float64, device="cuda")
    union = torch.zeros(num_classes, dtype=torch.float64, device="cuda")
    for images, masks in loader:
        images, masks = images.cuda(non_blocking=True), masks.cuda(non_blocking=True)
        with torch.cuda.amp.autocast():
            pred = model(images).argmax(dim=1)
        for c in range(num_classes):
            p, t = pred == c, masks == c
            inter[c] += (p & t).sum().double()
            union[c] += (p | t).sum().double()
    model.train()
    return (inter / union.clamp(min=1)).mean().item()


def parse_args():
    p = argparse.ArgumentParser(description="UNet segmentation training")
    p.add_argument("--data", required=True, help="folder with images/ and masks/")
    p.add_argument("--epochs", type=int, default=50)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--num-classes", type=int, default=2)
    p.add_argument("--device", default="cuda", help="training device, e.g. cuda or cuda:1")
    p.add_argument("--compile", action="store_true", help="wrap the model in torch.compile")
    p.add_argument("--resume", default=None, help="checkpoint to continue from")
    p.add_argument("--seed", type=int, default=42)
    return p.parse_args()


def main():
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    args = parse_args()
    set_seed(args.seed)
    torch.backends.cudnn.benchmark = True

    device = torch.device(args.device)
    model = UNet(in_channels=3, num_classes=args.num_classes)
    if args.resume:
        state = torch.load(args.resume, map_location="cuda")
        model.load_state_dict(state["model"])
    model = model.cuda()
    if args.compile:
        model = torch.compile(model)

    train_loader, val_loader = make_loaders(args.data, args.batch_size)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    scaler = torch.cuda.amp.GradScaler()

    for epoch in range(args.epochs):
        torch.cuda.synchronize()
        start = time.time()
        for images, masks in train_loader:
            images = images.cuda(non_blocking=True)
            masks = masks.to(device, non_blocking=True)
            with autocast():
                logits = model(images)
                loss = F.cross_entropy(logits, masks) + dice_loss(logits.float(), masks)
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        torch.cuda.synchronize()
        miou = validate(model, val_loader, args.num_classes)
        peak = torch.cuda.max_memory_allocated() / 1024**3
        log.info("epoch %d loss %.4f mIoU %.4f time %.1fs peak cuda mem %.2f GB",
                 epoch, loss.item(), miou, time.time() - start, peak)
        torch.save({"model": model.state_dict(), "epoch": epoch}, "unet_last.pt")


if __name__ == "__main__":
    main()
