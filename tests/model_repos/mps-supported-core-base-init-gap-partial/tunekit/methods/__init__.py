from .lowrank import LowrankAdapter
from .prefix import PrefixAdapter
from .prompt import PromptAdapter
from .bottleneck import BottleneckAdapter
from .scaling import ScalingAdapter
from .bias import BiasAdapter
from .gated import GatedAdapter
from .orthogonal import OrthogonalAdapter
from .butterfly import ButterflyAdapter
from .householder import HouseholderAdapter
from .kronecker import KroneckerAdapter
from .hadamard import HadamardAdapter
from .diagonal import DiagonalAdapter
from .sparse import SparseAdapter
from .shared import SharedAdapter
from .tied import TiedAdapter
from .mixture import MixtureAdapter
from .routing import RoutingAdapter
from .residual import ResidualAdapter
from .serial import SerialAdapter
from .parallel import ParallelAdapter
from .compacter import CompacterAdapter
from .ia3 import Ia3Adapter
from .vera import VeraAdapter
from .dora import DoraAdapter
from .fourier import FourierAdapter
from .wavelet import WaveletAdapter
from .spectral import SpectralAdapter
from .block import BlockAdapter
from .tensor import TensorAdapter
from .vector import VectorAdapter
from .cross import CrossAdapter
from .layernorm import LayernormAdapter
from .embedding import EmbeddingAdapter

ADAPTERS = {
    "lowrank": LowrankAdapter,
    "prefix": PrefixAdapter,
    "prompt": PromptAdapter,
    "bottleneck": BottleneckAdapter,
    "scaling": ScalingAdapter,
    "bias": BiasAdapter,
    "gated": GatedAdapter,
    "orthogonal": OrthogonalAdapter,
    "butterfly": ButterflyAdapter,
    "householder": HouseholderAdapter,
    "kronecker": KroneckerAdapter,
    "hadamard": HadamardAdapter,
    "diagonal": DiagonalAdapter,
    "sparse": SparseAdapter,
    "shared": SharedAdapter,
    "tied": TiedAdapter,
    "mixture": MixtureAdapter,
    "routing": RoutingAdapter,
    "residual": ResidualAdapter,
    "serial": SerialAdapter,
    "parallel": ParallelAdapter,
    "compacter": CompacterAdapter,
    "ia3": Ia3Adapter,
    "vera": VeraAdapter,
    "dora": DoraAdapter,
    "fourier": FourierAdapter,
    "wavelet": WaveletAdapter,
    "spectral": SpectralAdapter,
    "block": BlockAdapter,
    "tensor": TensorAdapter,
    "vector": VectorAdapter,
    "cross": CrossAdapter,
    "layernorm": LayernormAdapter,
    "embedding": EmbeddingAdapter,
}


def wrap(model, method: str = "lowrank", rank: int = 8):
    """Replaces every nn.Linear of `model` by the chosen adapter around it."""
    import torch.nn as nn

    adapter = ADAPTERS[method]
    for name, child in list(model.named_children()):
        if isinstance(child, nn.Linear):
            setattr(model, name, adapter(child, rank))
        else:
            wrap(child, method, rank)
    return model
