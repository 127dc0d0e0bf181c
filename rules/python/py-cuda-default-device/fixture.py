"""Fixture for py-cuda-default-device.

Docs may say: def train(device="cuda") is a default; that text is not a finding.
"""
import argparse
import dataclasses
import os
from dataclasses import dataclass, field

import click
import torch
from pydantic import BaseModel, Field


# expect: py-cuda-default-device
def train(model, device="cuda"):
    return model.to(device)


# expect: py-cuda-default-device
def evaluate(model, device: str = "cuda:0", batch_size: int = 32):
    return model.to(device), batch_size


def ddp_worker(
    rank,
    # expect: py-cuda-default-device
    device="cuda:0",
):
    return rank, device


# expect: py-cuda-default-device
move = lambda x, device="cuda": x.to(device)


@dataclass
class TrainConfig:
    lr: float = 3e-4
    # expect: py-cuda-default-device
    device: str = "cuda"
    # expect: py-cuda-default-device
    eval_device: str = field(default="cuda:0")
    # ok: py-cuda-default-device
    name: str = "cuda-run"


@dataclasses.dataclass
class InferConfig:
    # expect: py-cuda-default-device
    device: str = dataclasses.field(default="cuda")


class ServeSettings(BaseModel):
    # expect: py-cuda-default-device
    device: str = Field("cuda", description="torch device")


def cli():
    parser = argparse.ArgumentParser()
    # expect: py-cuda-default-device
    parser.add_argument("--device", type=str, default="cuda", help="device to use")
    # expect: py-cuda-default-device
    parser.add_argument("--eval-device", default="cuda:1")
    # ok: py-cuda-default-device
    parser.add_argument("--device-cpu", default="cpu", help="for example cuda or mps")
    # ok: py-cuda-default-device
    parser.add_argument("--cuda", action="store_true", help="use cuda")
    # ok: py-cuda-default-device
    parser.add_argument("--backend", default="nccl")
    return parser.parse_args()


@click.command()
# expect: py-cuda-default-device
@click.option("--device", default="cuda", show_default=True)
def main(device):
    return device


def from_env(cfg, args):
    # expect: py-cuda-default-device
    device = os.environ.get("TRAIN_DEVICE", "cuda")
    # expect: py-cuda-default-device
    device = os.getenv("TRAIN_DEVICE", "cuda:0")
    # expect: py-cuda-default-device
    device = cfg.get("device", "cuda")
    # todo-expect: py-cuda-default-device
    device = getattr(args, "device", "cuda")
    return device


# ok: py-cuda-default-device
def run(model, device=None):
    # ok: py-cuda-default-device
    device = device or ("cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu")
    return model.to(device)


# ok: py-cuda-default-device
def run_cpu(model, device="cpu", dtype=torch.float32):
    return model.to(device, dtype)


# ok: py-cuda-default-device
def run_mps(model, device: str = "mps"):
    return model.to(device)


def negatives(x, cfg):
    # ok: py-cuda-default-device
    x = x.to("cuda")
    # ok: py-cuda-default-device
    device = "cuda"
    # ok: py-cuda-default-device
    backend = cfg.get("backend", "nccl")
    return x, device, backend


# A torch.device default is a default too (not a hardcoded device).
# expect: py-cuda-default-device
def load_weights(path, device=torch.device("cuda")):
    return torch.load(path, map_location=device)


# expect: py-cuda-default-device
def make_loader(dataset, device: torch.device = torch.device("cuda:0")):
    return dataset, device


# ok: py-cuda-default-device
def load_on_cpu(path, device=torch.device("cpu")):
    return torch.load(path, map_location=device)


# A module-level default that a config file or the command line overrides (the configurator is
# exec'd below, nanoGPT style): a configurable default, not a hard-code.
# expect: py-cuda-default-device
device = "cuda"
exec(open("configurator.py").read())
