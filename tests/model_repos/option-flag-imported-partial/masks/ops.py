import torch

from masks._support import _SUPPORTS_FAST_MASK


def causal_mask(n: int) -> torch.Tensor:
    mask = torch.ones(n, n).tril().bool()
    if _SUPPORTS_FAST_MASK:
        mask = mask.to("cuda")
    return mask
