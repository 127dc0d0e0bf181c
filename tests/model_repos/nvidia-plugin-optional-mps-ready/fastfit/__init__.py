from fastfit.aliases import ALIASES
from fastfit.model import Model
from fastfit.precision import Fp8Precision, Precision
from fastfit.trainer import Trainer

__all__ = ["ALIASES", "Fp8Precision", "Model", "Precision", "Trainer"]
