import torch


def dequantize(weight):
    """4-bit weights back to the compute dtype; only for models quantised with bitsandbytes."""
    import bitsandbytes as bnb

    return bnb.functional.dequantize_4bit(weight.data, weight.quant_state).to(torch.float32)
