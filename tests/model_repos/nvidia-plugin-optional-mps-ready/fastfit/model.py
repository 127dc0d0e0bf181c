import torch

from fastfit.imports import RequirementCache

_TRT_AVAILABLE = RequirementCache("torch_tensorrt")


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(8, 1)

    def forward(self, x):
        return self.linear(x)

    def to_tensorrt(self, sample):
        if not _TRT_AVAILABLE:
            raise ModuleNotFoundError(str(_TRT_AVAILABLE))
        import torch_tensorrt

        return torch_tensorrt.compile(self, inputs=[sample])
