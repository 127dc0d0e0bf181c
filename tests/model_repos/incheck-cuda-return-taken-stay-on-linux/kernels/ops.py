import torch


def fill(x: torch.Tensor) -> torch.Tensor:
    # The trap: the early return is the one a Mac does not take, so the import below runs there.
    if torch.cuda.is_available():
        return x.clone()
    import triton

    triton.cdiv(x.numel(), 1024)
    return x
