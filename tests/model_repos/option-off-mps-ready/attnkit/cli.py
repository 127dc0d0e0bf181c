import argparse

import torch

from .model import Attention
from .export import export_trt


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fused-attn", action="store_true")
    parser.add_argument("--export", action="store_true")
    args = parser.parse_args()
    model = Attention(16, use_fused_attn=args.fused_attn)
    model(torch.randn(2, 16))
    if args.export:
        export_trt(model)
