import torch


def _fast_gelu(x):
    # Imported inside a function that only CUDA tensors reach: a Mac never runs it.
    from third_party.fastops import fused_gelu

    return fused_gelu(x)


class Segmenter(torch.nn.Module):
    def __init__(self, dim: int = 8):
        super().__init__()
        self.proj = torch.nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.proj(x)
        if y.is_cuda:
            return _fast_gelu(y)
        return torch.nn.functional.gelu(y)
