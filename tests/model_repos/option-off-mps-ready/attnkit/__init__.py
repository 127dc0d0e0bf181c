from .model import Attention
from .cli import main
