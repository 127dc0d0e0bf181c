"""FusedViT: a ViT-B/16-style classifier built on fused kernels.

* attention goes through FlashAttention-2 (fp16/bf16 only),
* RMSNorm is our own extension (csrc/), built by `pip install -e .`,
* attention pooling in the head uses the Triton softmax in kernels/.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
from flash_attn import flash_attn_func

import fused_rmsnorm_cuda
from kernels.triton_softmax import triton_softmax


@dataclass
class ViTConfig:
    image_size: int = 224
    patch_size: int = 16
    dim: int = 768
    depth: int = 12
    heads: int = 12
    mlp_ratio: float = 4.0
    num_classes: int = 1000
    dropout: float = 0.0


class _RMSNormFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, eps):
        ctx.save_for_backward(x, weight)
        ctx.eps = eps
        return fused_rmsnorm_cuda.forward(x.contiguous(), weight.to(x.dtype).contiguous(), eps)

    @staticmethod
    def backward(ctx, grad_out):
        # backward is not fused yet; recompute in PyTorch
        x, weight = ctx.saved_tensors
        xf = x.float()
        rstd = torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + ctx.eps)
        xhat = xf * rstd
        g = grad_out.float() * weight.float()
        grad_x = rstd * (g - xhat * (g * xhat).mean(-1, keepdim=True))
        grad_w = (grad_out.float() * xhat).reshape(-1, x.shape[-1]).sum(0)
        return grad_x.to(x.dtype), grad_w.to(weight.dtype), None


class FusedRMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return _RMSNormFn.apply(x, self.weight, self.eps)


class Block(nn.Module):
    def __init__(self, cfg: ViTConfig):
        super().__init__()
        self.heads = cfg.heads
        self.norm1, self.norm2 = FusedRMSNorm(cfg.dim), FusedRMSNorm(cfg.dim)
        self.qkv = nn.Linear(cfg.dim, 3 * cfg.dim)
        self.proj = nn.Linear(cfg.dim, cfg.dim)
        hidden = int(cfg.dim * cfg.mlp_ratio)
        self.mlp = nn.Sequential(nn.Linear(cfg.dim, hidden), nn.GELU(), nn.Linear(hidden, cfg.dim))
        self.dropout = cfg.dropout

    def forward(self, x):
        b, n, d = x.shape
        qkv = self.qkv(self.norm1(x)).view(b, n, 3, self.heads, d // self.heads)
        q, k, v = qkv.unbind(dim=2)  # each (b, n, heads, head_dim), as flash_attn expects
        attn = flash_attn_func(q, k, v, dropout_p=self.dropout if self.training else 0.0, causal=False)
        x = x + self.proj(attn.reshape(b, n, d))
        return x + self.mlp(self.norm2(x))


class FusedViT(nn.Module):
    def __init__(self, cfg: ViTConfig):
        super().__init__()
        # small conv stem with BatchNorm (converted to SyncBatchNorm under DDP)
        self.stem = nn.Sequential(
            nn.Conv2d(3, cfg.dim // 4, 3, stride=2, padding=1, bias=False),
            nn.BatchNorm2d(cfg.dim // 4),
            nn.GELU(),
            nn.Conv2d(cfg.dim // 4, cfg.dim, cfg.patch_size // 2, stride=cfg.patch_size // 2),
        )
        num_patches = (cfg.image_size // cfg.patch_size) ** 2
        self.pos = nn.Parameter(torch.zeros(1, num_patches, cfg.dim))
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.depth)])
        self.norm = FusedRMSNorm(cfg.dim)
        self.pool_score = nn.Linear(cfg.dim, 1)
        self.head = nn.Linear(cfg.dim, cfg.num_classes)
        nn.init.trunc_normal_(self.pos, std=0.02)

    def forward(self, images):
        x = self.stem(images).flatten(2).transpose(1, 2) + self.pos
        for blk in self.blocks:
            x = blk(x)
        x = self.norm(x)
        weights = triton_softmax(self.pool_score(x).squeeze(-1))  # (b, n)
        return self.head((weights.unsqueeze(-1) * x).sum(dim=1))
