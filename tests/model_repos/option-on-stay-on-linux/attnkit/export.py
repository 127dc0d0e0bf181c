import torch


def export_trt(model: torch.nn.Module) -> None:
    import triton

    triton.cdiv(1, 1)
    torch.save(model.state_dict(), "model.pt")
