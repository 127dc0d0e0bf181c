"""Tile dataset: images/<name>.png with a matching masks/<name>.png.

Masks store the class index per pixel (0 = background). Augmentations are
done on the CPU workers; the batches are copied to the cuda device in train.py.
"""
import logging
import os
import random
from typing import List, Tuple

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset

log = logging.getLogger(__name__)

MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)


class TileDataset(Dataset):
    def __init__(self, root: str, names: List[str], crop: int = 256, train: bool = True):
        self.root, self.names, self.crop, self.train = root, names, crop, train

    def __len__(self) -> int:
        return len(self.names)

    def _load(self, name: str) -> Tuple[np.ndarray, np.ndarray]:
        img = Image.open(os.path.join(self.root, "images", name)).convert("RGB")
        mask = Image.open(os.path.join(self.root, "masks", name))
        return np.asarray(img, dtype=np.float32) / 255.0, np.asarray(mask, dtype=np.int64)

    def __getitem__(self, idx: int):
        img, mask = self._load(self.names[idx])
        h, w = mask.shape
        top = random.randint(0, h - self.crop) if self.train else (h - self.crop) // 2
        left = random.randint(0, w - self.crop) if self.train else (w - self.crop) // 2
        img = img[top:top + self.crop, left:left + self.crop]
        mask = mask[top:top + self.crop, left:left + self.crop]
        if self.train and random.random() < 0.5:
            img, mask = img[:, ::-1], mask[:, ::-1]
        img = (img - MEAN) / STD
        image = torch.from_numpy(np.ascontiguousarray(img.transpose(2, 0, 1)))
        return image, torch.from_numpy(np.ascontiguousarray(mask))


def make_loaders(root: str, batch_size: int, val_fraction: float = 0.1):
    names = sorted(os.listdir(os.path.join(root, "images")))
    random.Random(0).shuffle(names)
    n_val = max(1, int(len(names) * val_fraction))
    log.info("%d training tiles, %d validation tiles", len(names) - n_val, n_val)
    train_ds = TileDataset(root, names[n_val:], train=True)
    val_ds = TileDataset(root, names[:n_val], train=False)
    train_loader = DataLoader(train_ds, batch_size=batch_size, shuffle=True,
                              pin_memory=True, num_workers=4, drop_last=True)
    val_loader = DataLoader(val_ds, batch_size=batch_size, shuffle=False,
                            pin_memory=True, num_workers=4)
    return train_loader, val_loader
