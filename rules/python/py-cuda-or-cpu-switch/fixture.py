"""Fixture for py-cuda-or-cpu-switch.

A docstring may say "cuda" if not cpu_only else "cpu" freely.
"""
import argparse

import torch


def load_model(config, cpu_only=False):
    # expect: py-cuda-or-cpu-switch
    config.device = "cuda" if not cpu_only else "cpu"
    return config


def pick(args):
    # expect: py-cuda-or-cpu-switch
    device = torch.device("cpu" if args.cpu else "cuda")
    # expect: py-cuda-or-cpu-switch
    other = "cuda:0" if not args.no_cuda else "cpu"
    # expect: py-cuda-or-cpu-switch
    third = "cpu" if args.use_cpu else "cuda"
    return device, other, third


def negatives(args, verbose):
    # Offloading to the CPU is not a device choice for the model.
    # ok: py-cuda-or-cpu-switch
    mode = "cuda" if not args.cpu_offload else "cpu"
    # A test of something else.
    # ok: py-cuda-or-cpu-switch
    label = "cuda" if verbose else "cpu"
    # A third device is on offer.
    # ok: py-cuda-or-cpu-switch
    device = "cpu" if args.cpu else ("mps" if torch.backends.mps.is_available() else "cuda")
    # ok: py-cuda-or-cpu-switch
    text = "cpu" if args.cpu else "mps"
    return mode, label, device, text


def cli():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cpu", action="store_true")
    return parser
