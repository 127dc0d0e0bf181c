import torch


def fill(x: torch.Tensor, has_bias: bool = True) -> torch.Tensor:
    # `has_bias` reads like an availability flag, but it is the caller's option and its default is
    # on: a Mac run with the defaults takes this branch and imports Triton.
    if has_bias:
        import triton

        triton.cdiv(x.numel(), 1024)
    return x.clone()
