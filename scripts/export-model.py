#!/usr/bin/env python3
"""Export a PyTorch model for `mpsready smoke`: a TorchScript archive and an example-input file.

Run this on the machine where the model already works (the lab's Linux/CUDA box), in the
project's own environment, then copy the two files to the Mac (or keep them for `--record`):

    python3 scripts/export-model.py --factory mypkg.models:build_model \\
        --example 8x3x224x224:float32 --out model.pt --inputs-out inputs.pt
    mpsready smoke model.pt --inputs inputs.pt --device auto

--factory MODULE:FUNCTION names a function of your own code that returns the model (an
nn.Module, weights loaded). The model is put in eval mode and exported with torch.jit.script; if
scripting fails (dynamic Python that TorchScript does not support), it falls back to
torch.jit.trace with the example inputs, and says so: a traced model records one path through the
code, so data-dependent branches are frozen to the ones the example took.

--example SHAPE:DTYPE (repeatable, in forward()'s order) makes random example inputs with that
shape (float: standard normal; integers: 0..9, as mpsready does). To use real examples instead,
pass --example-file FILE holding a tensor or a tuple of tensors saved with torch.save.

The inputs file is a small TorchScript archive whose attribute `inputs` holds the example tuple;
`mpsready smoke --inputs` reads it without unpickling Python objects. The export runs your code,
on your machine, in your environment: mpsready itself never imports or runs a repository's code.
"""
import argparse
import importlib
import sys

import torch

DTYPES = {
    "float32": torch.float32, "float": torch.float32, "float16": torch.float16, "half": torch.float16,
    "bfloat16": torch.bfloat16, "float64": torch.float64, "double": torch.float64, "int64": torch.int64,
    "long": torch.int64, "int32": torch.int32, "int": torch.int32, "int16": torch.int16, "int8": torch.int8,
    "uint8": torch.uint8, "bool": torch.bool, "complex64": torch.complex64, "complex128": torch.complex128,
}


def parse_example(text, generator):
    shape_text, _, dtype_text = text.rpartition(":")
    if dtype_text not in DTYPES:
        sys.exit(f"--example {text}: unknown dtype {dtype_text!r} ({', '.join(sorted(DTYPES))})")
    shape = [int(d) for d in shape_text.split("x")] if shape_text else []
    dtype = DTYPES[dtype_text]
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=generator).bool()
    if not dtype.is_floating_point and not dtype.is_complex:
        return torch.randint(0, 10, shape, generator=generator, dtype=dtype)
    return torch.randn(shape, generator=generator).to(dtype)


class Inputs(torch.nn.Module):
    def __init__(self, inputs):
        super().__init__()
        self.inputs = inputs

    def forward(self):
        return self.inputs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--factory", required=True, help="MODULE:FUNCTION that returns the model")
    parser.add_argument("--example", action="append", default=[], help="SHAPE:DTYPE of an input (repeatable)")
    parser.add_argument("--example-file", help="torch.save file with a tensor or tuple of tensors")
    parser.add_argument("--out", default="model.pt", help="TorchScript archive to write")
    parser.add_argument("--inputs-out", default="inputs.pt", help="example-input archive to write")
    parser.add_argument("--trace", action="store_true", help="use torch.jit.trace instead of torch.jit.script")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    module_name, _, function_name = args.factory.partition(":")
    if not function_name:
        sys.exit("--factory: expected MODULE:FUNCTION, e.g. mypkg.models:build_model")
    model = getattr(importlib.import_module(module_name), function_name)()
    model = model.cpu().eval()

    if args.example_file:
        loaded = torch.load(args.example_file, map_location="cpu")
        example = tuple(loaded) if isinstance(loaded, (tuple, list)) else (loaded,)
    elif args.example:
        generator = torch.Generator().manual_seed(args.seed)
        example = tuple(parse_example(e, generator) for e in args.example)
    else:
        sys.exit("give the model's inputs: --example SHAPE:DTYPE (repeatable) or --example-file FILE")

    exported = None
    if not args.trace:
        try:
            exported = torch.jit.script(model)
        except Exception as error:  # TorchScript rejects much dynamic Python; tracing may still work
            print(f"torch.jit.script failed ({type(error).__name__}: {str(error).splitlines()[0]}); "
                  "tracing with the example inputs instead", file=sys.stderr)
    if exported is None:
        with torch.no_grad():
            exported = torch.jit.trace(model, example)
        print("traced: data-dependent branches are frozen to the path the example inputs took", file=sys.stderr)
    exported.save(args.out)
    torch.jit.script(Inputs(example)).save(args.inputs_out)
    print(f"wrote {args.out} and {args.inputs_out}")


if __name__ == "__main__":
    main()
