"""Row-wise softmax in Triton, one program per row.

Faster than torch.softmax for the short rows (<= 4096) used by attention
pooling; the backward is plain PyTorch.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_fwd_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                        BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_cols
    x = tl.load(in_ptr + row * in_row_stride + offsets, mask=mask, other=-float("inf"))
    x = x.to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_row_stride + offsets, num / den, mask=mask)


def _softmax_fwd(x: torch.Tensor) -> torch.Tensor:
    assert x.is_cuda, "triton_softmax needs a cuda tensor"
    shape = x.shape
    x2 = x.reshape(-1, shape[-1]).contiguous()
    n_rows, n_cols = x2.shape
    out = torch.empty_like(x2)
    block = triton.next_power_of_2(n_cols)
    num_warps = 4 if block <= 2048 else 8
    _softmax_fwd_kernel[(n_rows,)](
        out, x2, x2.stride(0), out.stride(0), n_cols,
        BLOCK_SIZE=block, num_warps=num_warps,
    )
    return out.view(shape)


class _TritonSoftmax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = _softmax_fwd(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_y):
        (y,) = ctx.saved_tensors
        return y * (grad_y - (grad_y * y).sum(dim=-1, keepdim=True))


def triton_softmax(x: torch.Tensor) -> torch.Tensor:
    """Softmax over the last dimension."""
    return _TritonSoftmax.apply(x)
