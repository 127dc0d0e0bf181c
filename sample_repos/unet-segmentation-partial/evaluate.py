"""Per-class Dice on a held-out folder, plus optional PNG dumps of predictions.

    python evaluate.py --data /data/tiles_test --checkpoint unet_last.pt
"""
import argparse
import os

import numpy as np
import torch as T
from PIL import Image

from data import TileDataset
from model import UNet


def load_model(path: str, num_classes: int) -> UNet:
    model = UNet(in_channels=3, num_classes=num_classes)
    state = T.load(path, map_location="cpu")["model"]
    # checkpoints written with --compile carry an "_orig_mod." prefix
    state = {k.replace("_orig_mod.", ""): v for k, v in state.items()}
    model.load_state_dict(state)
    return model.cuda().eval()


def main():
    p = argparse.ArgumentParser(description="Evaluate a trained UNet")
    p.add_argument("--data", required=True)
    p.add_argument("--checkpoint", required=True)
    p.add_argument("--num-classes", type=int, default=2)
    p.add_argument("--dump-dir", default=None, help="write predicted masks here")
    args = p.parse_args()

    names = sorted(os.listdir(os.path.join(args.data, "images")))
    dataset = TileDataset(args.data, names, train=False)
    loader = T.utils.data.DataLoader(dataset, batch_size=8, num_workers=4)
    model = load_model(args.checkpoint, args.num_classes)

    inter = np.zeros(args.num_classes, dtype=np.float64)
    total = np.zeros(args.num_classes, dtype=np.float64)
    offset = 0
    with T.no_grad():
        for images, masks in loader:
            pred = model(images.cuda(non_blocking=True)).argmax(dim=1).cpu()
            for c in range(args.num_classes):
                inter[c] += ((pred == c) & (masks == c)).sum().item()
                total[c] += (pred == c).sum().item() + (masks == c).sum().item()
            if args.dump_dir:
                os.makedirs(args.dump_dir, exist_ok=True)
                for i, m in enumerate(pred.numpy().astype(np.uint8)):
                    Image.fromarray(m * 255).save(os.path.join(args.dump_dir, names[offset + i]))
            offset += len(pred)

    dice = 2 * inter / np.maximum(total, 1)
    for c, d in enumerate(dice):
        print(f"class {c}: dice {d:.4f}")
    print(f"mean dice {dice.mean():.4f}")
    T.cuda.empty_cache()  # we usually run this right after training on the same cuda card


if __name__ == "__main__":
    main()
