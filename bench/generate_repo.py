#!/usr/bin/env python3
"""Writes a synthetic PyTorch lab repository for the benchmark: thousands of Python modules, hundreds
of C++/CUDA sources, notebooks and manifests. Deterministic: the same seed writes the same bytes.

usage: generate_repo.py OUT_DIR [--seed N] [--python N] [--cpp N] [--notebooks N]
"""
import argparse
import json
import os
import random

# Building blocks of ordinary research code. About half the modules touch CUDA in some way; the
# rest are plain Python that the prefilter should skip without parsing.
PLAIN_BLOCKS = [
    '''def {name}(values, scale={n}):
    """Scales and sums a list of numbers."""
    total = 0
    for i, v in enumerate(values):
        if i % {m} == 0:
            total += v * scale
        else:
            total -= v / (scale + 1)
    return total
''',
    '''class {Name}Config:
    def __init__(self, width={n}, depth={m}, dropout=0.{m}):
        self.width = width
        self.depth = depth
        self.dropout = dropout

    def as_dict(self):
        return {{"width": self.width, "depth": self.depth, "dropout": self.dropout}}
''',
    '''def {name}_parse(line):
    parts = [p.strip() for p in line.split(",") if p]
    out = {{}}
    for key, value in zip(parts[::2], parts[1::2]):
        try:
            out[key] = float(value)
        except ValueError:
            out[key] = value
    return out
''',
    '''async def {name}_fetch(client, urls):
    results = []
    for url in urls:
        async with client.get(url) as response:
            results.append(await response.text())
    return [r for r in results if len(r) > {n}]
''',
]

TORCH_BLOCKS = [
    '''class {Name}(nn.Module):
    def __init__(self, dim={n}):
        super().__init__()
        self.proj = nn.Linear(dim, dim * {m})
        self.norm = nn.LayerNorm(dim * {m})

    def forward(self, x):
        return torch.relu(self.norm(self.proj(x)))
''',
    '''def {name}_step(model, batch, optimizer):
    inputs, targets = batch
    outputs = model(inputs)
    loss = torch.nn.functional.cross_entropy(outputs, targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
''',
    '''def {name}_stats(t):
    return {{"mean": t.mean().item(), "std": t.std().item(), "max": t.abs().max().item()}}
''',
]

CUDA_BLOCKS = [
    '''def {name}_to_gpu(model, x):
    model = model.cuda()
    x = x.cuda(non_blocking=True)
    return model(x)
''',
    '''def {name}_device():
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    torch.backends.cudnn.benchmark = True
    return device
''',
    '''def {name}_timed(fn, *args):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    out = fn(*args)
    end.record()
    torch.cuda.synchronize()
    return out, start.elapsed_time(end)
''',
    '''def {name}_amp(model, x, scaler):
    with torch.cuda.amp.autocast():
        y = model(x)
    scaler.scale(y.sum()).backward()
    torch.cuda.empty_cache()
    return y.to("cuda")
''',
    '''def {name}_loader(ds):
    return torch.utils.data.DataLoader(ds, batch_size={n}, pin_memory=True, num_workers={m})
''',
    '''def {name}_dist(rank):
    torch.distributed.init_process_group("nccl", rank=rank)
    model = torch.nn.parallel.DistributedDataParallel(build(), device_ids=[rank])
    return model.double()
''',
]

CPP_KERNEL = '''#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

template <typename scalar_t>
__global__ void {name}_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int n) {{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {{
    scalar_t v = x[i];
    v = __shfl_xor_sync(0xffffffff, v, {m});
    y[i] = v * static_cast<scalar_t>({n});
  }}
}}

torch::Tensor {name}_forward(torch::Tensor x) {{
  auto y = torch::empty_like(x);
  const int n = x.numel();
  const int threads = 256;
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "{name}", [&] {{
    {name}_kernel<scalar_t><<<(n + threads - 1) / threads, threads, 0,
        at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
  }});
  cudaError_t err = cudaGetLastError();
  TORCH_CHECK(err == cudaSuccess, cudaGetErrorString(err));
  return y;
}}
'''

CPP_PLAIN = '''#include <vector>
#include <string>
#include <algorithm>

namespace lab {{

// Sorts and deduplicates ids; plain C++ that never needs CUDA.
std::vector<int> {name}_unique(std::vector<int> ids) {{
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (int i = 0; i < {n}; ++i) ids.push_back(i * {m});
  return ids;
}}

std::string {name}_join(const std::vector<std::string>& parts) {{
  std::string out;
  for (const auto& p : parts) {{
    if (!out.empty()) out += ",";
    out += p;
  }}
  return out;
}}

}}  // namespace lab
'''

CPP_BINDING = '''#include <torch/extension.h>

torch::Tensor {name}_forward(torch::Tensor x);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {{
  m.def("forward", &{name}_forward, "{name} forward (CUDA)");
}}
'''


def words(rng):
    syll = ["ra", "to", "mi", "ke", "su", "no", "va", "li", "de", "po", "gra", "tel"]
    return "".join(rng.choice(syll) for _ in range(rng.randint(2, 4)))


def fill(block, rng):
    name = words(rng)
    return block.format(name=name, Name=name.capitalize(), n=rng.randint(2, 512), m=rng.randint(1, 8))


def python_module(rng, cuda):
    lines = ["import os", "import math"]
    if cuda or rng.random() < 0.6:
        lines += ["import torch", "import torch.nn as nn"]
        torch = True
    else:
        torch = False
    if cuda and rng.random() < 0.1:
        lines.append("import apex")
    body = []
    for _ in range(rng.randint(6, 30)):
        r = rng.random()
        if cuda and r < 0.25:
            body.append(fill(rng.choice(CUDA_BLOCKS), rng))
        elif torch and r < 0.55:
            body.append(fill(rng.choice(TORCH_BLOCKS), rng))
        else:
            body.append(fill(rng.choice(PLAIN_BLOCKS), rng))
    return "\n".join(lines) + "\n\n\n" + "\n\n".join(body)


def notebook(rng):
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# Experiment " + words(rng) + "\n"]}]
    for _ in range(rng.randint(4, 12)):
        src = fill(rng.choice(CUDA_BLOCKS + TORCH_BLOCKS + PLAIN_BLOCKS), rng)
        if rng.random() < 0.2:
            src = "!nvidia-smi\n%matplotlib inline\n" + src
        cells.append({"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                      "source": src.splitlines(keepends=True)})
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--python", type=int, default=4000)
    ap.add_argument("--cpp", type=int, default=400)
    ap.add_argument("--notebooks", type=int, default=60)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    packages = ["models", "data", "train", "eval", "utils", "ops", "tools", "experiments"]
    for i in range(args.python):
        pkg = packages[i % len(packages)]
        sub = "sub%d" % (i // 200)
        write(os.path.join(args.out, "lab", pkg, sub, "mod_%05d.py" % i), python_module(rng, rng.random() < 0.45))
    for pkg in packages:
        write(os.path.join(args.out, "lab", pkg, "__init__.py"), "")
    for i in range(args.cpp):
        kind = i % 4
        d = os.path.join(args.out, "csrc", "ext%02d" % (i // 20))
        name = words(rng) + str(i)
        if kind == 0:
            write(os.path.join(d, name + "_kernel.cu"), CPP_KERNEL.format(name=name, n=rng.randint(2, 512), m=rng.randint(1, 16)))
        elif kind == 1:
            write(os.path.join(d, name + "_binding.cpp"), CPP_BINDING.format(name=name))
        else:
            ext = ".cpp" if kind == 2 else ".h"
            write(os.path.join(d, name + ext), fill(CPP_PLAIN, rng))
    for i in range(args.notebooks):
        write(os.path.join(args.out, "notebooks", "nb_%03d.ipynb" % i), notebook(rng))
    write(os.path.join(args.out, "requirements.txt"),
          "torch==2.1.0+cu121\n--extra-index-url https://download.pytorch.org/whl/cu121\nnumpy\n"
          "flash-attn==2.5.0\nnvidia-ml-py\ntriton\napex\n")
    write(os.path.join(args.out, "environment.yml"),
          "name: lab\nchannels: [pytorch, nvidia]\ndependencies:\n  - pytorch-cuda=12.1\n  - cudatoolkit=11.8\n  - pip\n")
    write(os.path.join(args.out, "Dockerfile"),
          "FROM nvidia/cuda:12.1.0-cudnn8-devel-ubuntu22.04\nRUN pip install -r requirements.txt\n")
    write(os.path.join(args.out, "scripts", "train.sbatch"),
          "#!/bin/bash\n#SBATCH --gres=gpu:4\nsrun torchrun --nproc_per_node=4 train.py\n")
    write(os.path.join(args.out, "setup.py"),
          "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\n"
          "setup(name='lab', ext_modules=[CUDAExtension('lab_ext', ['csrc/ext00/a_kernel.cu'])],\n"
          "      cmdclass={'build_ext': BuildExtension})\n")


if __name__ == "__main__":
    main()
