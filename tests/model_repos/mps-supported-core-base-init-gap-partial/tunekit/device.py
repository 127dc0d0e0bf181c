import torch


def infer_device() -> str:
    """The best device here: CUDA, then Apple's MPS, then the CPU."""
    if torch.cuda.is_available():
        return "cuda"
    elif hasattr(torch.backends, "mps") and torch.backends.mps.is_available():
        return "mps"
    return "cpu"
