"""Capture the decoder step in a CUDA graph.

torch.cuda.graph(g) in a docstring is not a finding.
"""
import argparse

import networkx as nx
import torch
import torch as t
from torch.cuda import CUDAGraph, make_graphed_callables


def build_graph(model, static_in):
    # expect: py-cuda-graphs
    g = torch.cuda.CUDAGraph()
    # expect: py-cuda-graphs
    with torch.cuda.graph(g):
        static_out = model(static_in)
    g.replay()
    return g, static_out


def graphed(model, sample):
    # expect: py-cuda-graphs
    g2 = CUDAGraph()
    # expect: py-cuda-graphs
    fn = make_graphed_callables(model, (sample,))
    # expect: py-cuda-graphs
    pool = t.cuda.graph_pool_handle()
    # expect: py-cuda-graphs
    fn2 = torch.cuda.graphs.make_graphed_callables(model, (sample,))
    return g2, fn, pool, fn2


def compiled(model, args):
    # expect: py-cuda-graphs
    fast = torch.compile(model, mode="reduce-overhead")
    # expect: py-cuda-graphs
    fast2 = t.compile(model, backend="cudagraphs")
    # ok: py-cuda-graphs
    plain = torch.compile(model)
    # ok: py-cuda-graphs
    tuned = torch.compile(model, mode="max-autotune-no-cudagraphs")
    # ok: py-cuda-graphs
    other = torch.compile(model, mode=args.compile_mode)
    # ok: py-cuda-graphs
    dflt = torch.compile(model, mode="default", fullgraph=True)
    return fast, fast2, plain, tuned, other, dflt


def guarded(model, x, device):
    if torch.cuda.is_available():
        # expect-guarded: py-cuda-graphs
        g = torch.cuda.CUDAGraph()
    if device.type == "cuda":
        # expect-guarded: py-cuda-graphs
        model = torch.compile(model, mode="reduce-overhead")
    # ok: py-cuda-graphs
    mode = "reduce-overhead" if device.type == "cuda" else "default"
    # ok: py-cuda-graphs
    model = torch.compile(model, mode=mode)
    return model


def negatives(edges):
    # ok: py-cuda-graphs
    G = nx.Graph()
    # ok: py-cuda-graphs
    fx_graph = torch.fx.Graph()
    # ok: py-cuda-graphs
    print("mode=reduce-overhead uses torch.cuda.graph under the hood")
    # ok: py-cuda-graphs
    G.add_edges_from(edges)
    return G, fx_graph


def cli():
    parser = argparse.ArgumentParser()
    # ok: py-cuda-graphs
    parser.add_argument("--compile-mode", default="reduce-overhead", help="torch.compile mode")
    return parser.parse_args()
