import torch


def infer_device() -> str:
    """The best device here: CUDA, else the CPU."""
    if torch.cuda.is_available():
        return "cuda"
    return "cpu"
