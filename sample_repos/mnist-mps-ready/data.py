"""MNIST loaders.

pin_memory only speeds up host-to-cuda copies, so it is left at its default
here; on Apple Silicon the unified memory makes it pointless anyway.
"""
import logging
from typing import Tuple

from torch.utils.data import DataLoader
from torchvision import datasets, transforms

log = logging.getLogger(__name__)

MNIST_MEAN = (0.1307,)
MNIST_STD = (0.3081,)


def mnist_transforms(train: bool) -> transforms.Compose:
    steps = []
    if train:
        steps.append(transforms.RandomAffine(degrees=10, translate=(0.1, 0.1)))
    steps += [transforms.ToTensor(), transforms.Normalize(MNIST_MEAN, MNIST_STD)]
    return transforms.Compose(steps)


def build_loaders(data_dir: str, batch_size: int, num_workers: int = 2) -> Tuple[DataLoader, DataLoader]:
    """Download MNIST if needed and return (train_loader, test_loader)."""
    train_set = datasets.MNIST(data_dir, train=True, download=True, transform=mnist_transforms(True))
    test_set = datasets.MNIST(data_dir, train=False, download=True, transform=mnist_transforms(False))
    log.info("MNIST: %d train / %d test images", len(train_set), len(test_set))
    train_loader = DataLoader(train_set, batch_size=batch_size, shuffle=True,
                              num_workers=num_workers, drop_last=True)
    test_loader = DataLoader(test_set, batch_size=2 * batch_size, shuffle=False,
                             num_workers=num_workers)
    return train_loader, test_loader
