"""Traces a transformer encoder block with PyTorch (Debian's python3-torch) and saves it as
TorchScript, for the op-coverage tests. Usage: trace_transformer.py OUT.pt [train|eval]

In eval mode under no_grad, PyTorch's fast path runs the whole block as one fused op
(_transformer_encoder_layer_fwd); in train mode the block runs as separate ops.
"""
import sys

import torch

out, mode = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "eval"
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, batch_first=True)
x = torch.randn(2, 5, 32)
if mode == "eval":
    layer.eval()
    with torch.no_grad():
        traced = torch.jit.trace(layer, x)
else:
    layer.train()
    traced = torch.jit.trace(layer, x, check_trace=False)
traced.save(out)
