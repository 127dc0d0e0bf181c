#!/usr/bin/env python3
"""Captures, on a machine with PyTorch installed, what the op-status tables and the op-coverage
tests need from that PyTorch: its native_functions.yaml, its version and build, and for the test
models (linalg.svd + kthvalue + histc, nn.TransformerEncoderLayer in inference, a small CNN) the
aten ops of their TorchScript graphs and the aten ops a CPU run dispatches, with their parents
(the profiler's RecordFunction events).

    python3 scripts/capture-torch-op-facts.py OUT_DIR

writes OUT_DIR/native_functions.yaml and OUT_DIR/torch-op-facts.json. Then
`scripts/gen-op-tables.py OUT_DIR/native_functions.yaml --version V` makes the table.
"""
import json
import os
import platform
import shutil
import sys

import torch
import torchgen


def graph_ops(graph):
    """aten::name.overload of every node of an inlined graph, blocks included."""
    ops = {}
    nodes = list(graph.nodes())
    while nodes:
        node = nodes.pop()
        for block in node.blocks():
            nodes.extend(block.nodes())
        kind = node.kind()
        if not kind.startswith("aten::"):
            continue
        overload = ""
        try:
            schema = node.schema()
            head = schema.split("(", 1)[0]
            if "." in head:
                overload = head.split(".", 1)[1]
        except Exception:  # a node without a schema
            schema = None
        key = kind + ("." + overload if overload else "")
        ops[key] = ops.get(key, 0) + 1
    return dict(sorted(ops.items()))


def dispatched_ops(fn, *args):
    """Every aten op a CPU run records (RecordFunction through the profiler), with its parent."""
    from torch.autograd import profiler

    with torch.no_grad(), profiler.profile(use_cpu=True) as prof:
        fn(*args)
    seen = {}
    for ev in prof.function_events:
        if not ev.name.startswith("aten::"):
            continue
        parent = ev.cpu_parent.name if ev.cpu_parent is not None else ""
        key = (ev.name, parent)
        seen[key] = seen.get(key, 0) + 1
    return [{"op": k[0], "parent": k[1], "count": v} for k, v in sorted(seen.items())]


class SvdKthHistc(torch.nn.Module):
    def forward(self, x):
        u, s, vh = torch.linalg.svd(x)
        values, indices = torch.kthvalue(x.flatten(), 2)
        return s.sum() + values + torch.histc(x, bins=4).sum() + u.sum() + vh.sum() + indices


class SmallCnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        y = torch.nn.functional.adaptive_avg_pool2d(y, 1).flatten(1)
        return torch.softmax(self.fc(y), dim=1)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    yaml = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native", "native_functions.yaml")
    shutil.copyfile(yaml, os.path.join(out, "native_functions.yaml"))
    torch.manual_seed(0)
    facts = {
        "torch_version": torch.__version__,
        "git_version": getattr(torch.version, "git_version", None),
        "cuda": torch.version.cuda,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "config": torch.__config__.show(),
        "models": {},
    }
    models = {}
    x = torch.randn(4, 4)
    models["svd_kthvalue_histc"] = (torch.jit.script(SvdKthHistc()), (x,))
    layer = torch.nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, batch_first=True).eval()
    src = torch.randn(2, 5, 16)
    with torch.no_grad():
        models["transformer_encoder_layer_eval"] = (torch.jit.trace(layer, (src,)), (src,))
    cnn = SmallCnn().eval()
    img = torch.randn(2, 3, 8, 8)
    models["small_cnn"] = (torch.jit.trace(cnn, (img,)), (img,))
    for name, (module, args) in models.items():
        facts["models"][name] = {
            "graph_ops": graph_ops(module.inlined_graph),
            "dispatched_cpu": dispatched_ops(module, *args),
        }
    with open(os.path.join(out, "torch-op-facts.json"), "w") as f:
        json.dump(facts, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps({k: v for k, v in facts.items() if k not in ("config", "models")}, indent=1))
    for name, m in facts["models"].items():
        print(name, "graph:", " ".join(m["graph_ops"]))
        print(name, "dispatched:", " ".join(sorted({e["op"] + "<" + e["parent"] for e in m["dispatched_cpu"]})))


if __name__ == "__main__":
    main()
