"""Fixture for py-torch-compile.

Docstrings may say torch.compile(model) or @torch.compile without being findings.
"""
import argparse
import re

import torch
import torch as t
import torch._dynamo
from torch import compile as tcompile


# expect: py-torch-compile
@torch.compile
def fused_gelu(x):
    return x * torch.sigmoid(1.702 * x)


# expect: py-torch-compile
@torch.compile(mode="max-autotune", fullgraph=True)
def attention_block(q, k, v):
    return torch.softmax(q @ k.transpose(-1, -2), dim=-1) @ v


# expect: py-torch-compile
@torch._dynamo.optimize("inductor")
def legacy_step(x):
    return x.relu()


def build(model, args):
    # `--compile` is an argparse store_true flag (below): an opt-in the default run does not take.
    if args.compile:
        # ok: py-torch-compile
        model = torch.compile(model)
    if args.fast:
        # expect: py-torch-compile
        model = torch.compile(model)
    # expect: py-torch-compile
    model = t.compile(model, mode="reduce-overhead")
    # expect: py-torch-compile
    step = tcompile(fused_gelu, dynamic=True)
    # expect: py-torch-compile
    compiler = torch.compile
    # expect: py-torch-compile
    opt = torch._dynamo.optimize("inductor")(model)
    return model, step, compiler, opt


def guarded(model, device, new_enough):
    # Compiling only behind a CUDA check is the fix: guarded sites are dropped (when_guarded: drop).
    if torch.cuda.is_available():
        # ok: py-torch-compile
        model = torch.compile(model)
    # ok: py-torch-compile
    model = torch.compile(model) if device.type == "cuda" else model
    if device.type == "cuda" or (device.type == "mps" and new_enough):
        # ok: py-torch-compile
        model = torch.compile(model)
    if new_enough:
        # expect: py-torch-compile
        model = torch.compile(model)
    return model


def negatives(model, src, args):
    # ok: py-torch-compile
    pattern = re.compile(r"layer\.(\d+)")
    # ok: py-torch-compile
    code = compile(src, "<string>", "exec")
    # ok: py-torch-compile
    use_compile = args.compile and hasattr(torch, "compile")
    # ok: py-torch-compile
    print("torch.compile is disabled on this device")
    # ok: py-torch-compile
    torch._dynamo.config.suppress_errors = True
    # ok: py-torch-compile
    torch._dynamo.reset()
    # ok: py-torch-compile
    fn = torch.compiler.disable(model.forward)
    # todo-expect: py-torch-compile
    model.compile()
    return pattern, code, use_compile, fn


parser = argparse.ArgumentParser()
# ok: py-torch-compile
parser.add_argument("--compile", action="store_true", help="wrap the model in torch.compile")
