import torch


def fill(x: torch.Tensor, has_bias: bool = False) -> torch.Tensor:
    # The same option, off by default: only a caller who asks for it imports Triton.
    if has_bias:
        import triton

        triton.cdiv(x.numel(), 1024)
    return x.clone()
