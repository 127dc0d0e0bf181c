import torch


def export(model, example, fmt: str = "torchscript"):
    """Export the model; TensorRT only when asked for."""
    if fmt == "torchscript":
        return torch.jit.trace(model, example)
    elif fmt == "trt":
        import tensorrt as trt  # only the TensorRT export needs it

        return trt.Builder(trt.Logger())
    raise ValueError(fmt)
