"""Fixture for py-cuda-else-cpu-idiom.

The docstring may quote "cuda" if torch.cuda.is_available() else "cpu" freely.
"""
import argparse
import logging

import torch
import torch as t

logger = logging.getLogger(__name__)

# expect: py-cuda-else-cpu-idiom
DEVICE = ("cuda" if torch.cuda.is_available()
          else "mps" if torch.backends.mps.is_available()
          else "cpu")
# expect: py-cuda-else-cpu-idiom
device = torch.device("cuda:0" if torch.cuda.is_available()
                      else "mps" if torch.backends.mps.is_available()
                      else "cpu")
# expect: py-cuda-else-cpu-idiom
device = (torch.device("cuda") if torch.cuda.is_available()
          else torch.device("mps") if torch.backends.mps.is_available()
          else torch.device("cpu"))
# expect: py-cuda-else-cpu-idiom
device = t.device("cuda" if t.cuda.is_available()
                  else "mps" if torch.backends.mps.is_available()
                  else "cpu")
# expect: py-cuda-else-cpu-idiom
device = "cpu" if not torch.cuda.is_available() else "cuda"


def setup(args, rank):
    # expect: py-cuda-else-cpu-idiom
    device = "cuda" if args.cuda else "mps" if torch.backends.mps.is_available() else "cpu"
    # expect: py-cuda-else-cpu-idiom
    device = torch.device(f"cuda:{rank}" if torch.cuda.is_available()
                          else "mps" if torch.backends.mps.is_available()
                          else "cpu")
    # expect: py-cuda-else-cpu-idiom
    device = ("cuda" if torch.cuda.is_available() and not args.no_cuda
              else "mps" if torch.backends.mps.is_available()
              else "cpu")
    # expect: py-cuda-else-cpu-idiom
    device = ("cuda" if torch.cuda.device_count() > 0
              else "mps" if torch.backends.mps.is_available()
              else "cpu")
    # expect: py-cuda-else-cpu-idiom
    device = ("cuda" if torch.cuda.is_available()
              else "mps" if torch.backends.mps.is_available()
              else "cpu")
    # expect: py-cuda-else-cpu-idiom
    devices = ["cuda" if torch.cuda.is_available()
               else "mps" if torch.backends.mps.is_available()
               else "cpu"]
    # expect: py-cuda-else-cpu-idiom
    x = torch.zeros(3).to("cuda" if torch.cuda.is_available()
                          else "mps" if torch.backends.mps.is_available()
                          else "cpu")
    return device, devices, x


def load(path):
    # A map_location: loaded onto the CPU on a Mac, and moved to the device afterwards.
    # ok: py-cuda-else-cpu-idiom
    return torch.load(path, map_location="cuda" if torch.cuda.is_available() else "cpu")


def cli():
    parser = argparse.ArgumentParser()
    # expect: py-cuda-else-cpu-idiom
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available()
                                            else "mps" if torch.backends.mps.is_available()
                                            else "cpu")
    return parser


def build(model):
    if torch.cuda.is_available():
        # expect: py-cuda-else-cpu-idiom
        dev = ("cuda" if torch.cuda.is_available()
               else "mps" if torch.backends.mps.is_available()
               else "cpu")
        return model.to(dev)
    return model


def negatives(args, use_mps):
    # ok: py-cuda-else-cpu-idiom
    device = "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu"
    # ok: py-cuda-else-cpu-idiom
    device = "mps" if torch.backends.mps.is_available() else "cuda" if torch.cuda.is_available() else "cpu"
    # ok: py-cuda-else-cpu-idiom
    device = torch.device("cuda" if torch.cuda.is_available() else ("mps" if use_mps else "cpu"))
    # ok: py-cuda-else-cpu-idiom
    device = "cuda" if torch.cuda.is_available() else args.device
    # ok: py-cuda-else-cpu-idiom
    device = "mps" if torch.backends.mps.is_available() else "cpu"
    # ok: py-cuda-else-cpu-idiom
    dtype = torch.bfloat16 if torch.cuda.is_available() else torch.float32
    # ok: py-cuda-else-cpu-idiom
    label = "cuda" if args.verbose else "cpu"
    # ok: py-cuda-else-cpu-idiom
    print("device:", "cuda" if torch.cuda.is_available() else "cpu")
    # ok: py-cuda-else-cpu-idiom
    print(f"Using {'cuda' if torch.cuda.is_available() else 'cpu'}")
    # ok: py-cuda-else-cpu-idiom
    logger.info("running on %s", "cuda" if torch.cuda.is_available() else "cpu")
    # ok: py-cuda-else-cpu-idiom
    device = "mps" if torch.backends.mps.is_available() else ("cuda" if torch.cuda.is_available() else "cpu")
    # ok: py-cuda-else-cpu-idiom
    device = "cuda"
    return device, dtype, label


def autocast_type(device: str):
    # The autocast device type derived from a device the user chose: the device stays mps.
    # ok: py-cuda-else-cpu-idiom
    device_type = "cuda" if "cuda" in device else "cpu"
    return device_type
