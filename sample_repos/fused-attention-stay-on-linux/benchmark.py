"""Inference latency of FusedViT, eager vs. captured in a CUDA graph.

    python benchmark.py --batch-size 64 --iters 50
"""
import argparse

import torch

from kernels.triton_softmax import triton_softmax
from model import FusedViT, ViTConfig


def time_ms(fn, iters: int) -> float:
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / iters


@torch.no_grad()
def main():
    p = argparse.ArgumentParser()
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--iters", type=int, default=50)
    args = p.parse_args()

    model = FusedViT(ViTConfig()).cuda().half().eval()
    static_in = torch.randn(args.batch_size, 3, 224, 224, device="cuda", dtype=torch.half)

    # warm up on a side stream before capture, as the CUDA graph docs require
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            model(static_in)
    torch.cuda.current_stream().wait_stream(side)

    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_out = model(static_in)

    eager = time_ms(lambda: model(static_in), args.iters)
    replay = time_ms(graph.replay, args.iters)
    print(f"eager {eager:.2f} ms/iter, graph {replay:.2f} ms/iter, out {tuple(static_out.shape)}")

    scores = torch.randn(args.batch_size * 196, 196, device="cuda", dtype=torch.half)
    t_torch = time_ms(lambda: torch.softmax(scores, dim=-1), args.iters)
    t_triton = time_ms(lambda: triton_softmax(scores), args.iters)
    print(f"softmax: torch {t_torch:.3f} ms, triton {t_triton:.3f} ms")


if __name__ == "__main__":
    main()
