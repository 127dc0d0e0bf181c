import torch

from .cpu_engine import SimpleEngine
from .stream_engine import _StreamEngine


def make_engine(x: torch.Tensor):
    # The stream engine only for CUDA tensors: a Mac's tensors get the simple one.
    if x.is_cuda:
        return _StreamEngine()
    return SimpleEngine()


def describe(engine, x: torch.Tensor) -> str:
    # The same tuple, but every engine in it is also made and run: the stream engine runs on a Mac.
    known = (SimpleEngine, _StreamEngine)
    if not isinstance(engine, known):
        raise TypeError("unknown engine")
    return ", ".join(f"{cls.__name__}: {cls().run(x).shape}" for cls in known)
