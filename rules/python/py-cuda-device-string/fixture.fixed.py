"""Fixture for py-cuda-device-string.

A docstring may say x.to("cuda") or device="cuda:0" without being a finding.
"""
import argparse
import logging
import os
from dataclasses import dataclass

import torch
from transformers import AutoModelForCausalLM, pipeline
from transformers.integrations import is_deepspeed_zero3_enabled

logger = logging.getLogger(__name__)

# expect: py-cuda-device-string
DEVICE = ("cuda" if torch.cuda.is_available()
          else "mps" if torch.backends.mps.is_available()
          else "cpu")
# expect: py-cuda-device-string
DEFAULT_DEVICE: str = ("cuda:0" if torch.cuda.is_available()
                       else "mps" if torch.backends.mps.is_available()
                       else "cpu")
# ok: py-cuda-device-string
BACKEND = "cuda"


@dataclass
class TrainConfig:
    # ok: py-cuda-device-string
    device: str = "cuda"
    lr: float = 1e-3


class Trainer:
    # expect: py-cuda-device-string
    device = ("cuda:0" if torch.cuda.is_available()
              else "mps" if torch.backends.mps.is_available()
              else "cpu")

    def __init__(self, rank):
        # expect: py-cuda-device-string
        self.device = (f"cuda:{rank}" if torch.cuda.is_available()
                       else "mps" if torch.backends.mps.is_available()
                       else "cpu")
        # expect: py-cuda-device-string
        self.eval_device: str = ("cuda:1" if torch.cuda.is_available()
                                 else "mps" if torch.backends.mps.is_available()
                                 else "cpu")
        # ok: py-cuda-device-string
        self.cuda_ok = torch.cuda.is_available()


def positives(model, x, ckpt_path, rank):
    # expect: py-cuda-device-string
    if torch.cuda.is_available():
        device = torch.device("cuda")
    elif torch.backends.mps.is_available():
        device = torch.device("mps")
    else:
        device = torch.device("cpu")
    x = x.to(device)
    # expect: py-cuda-device-string
    x = x.to("cuda:1", non_blocking=True)
    # expect: py-cuda-device-string
    model.to(device=device)
    # expect: py-cuda-device-string
    dev = device
    # expect: py-cuda-device-string
    dev = torch.device("cuda", rank)
    # expect: py-cuda-device-string
    dev = torch.device(f"cuda:{rank}")
    # expect: py-cuda-device-string
    y = torch.zeros(3, 4, device=device)
    # expect: py-cuda-device-string
    g = torch.Generator(device=device)
    # expect: py-cuda-device-string
    state = torch.load(ckpt_path, map_location=device)
    # expect: py-cuda-device-string
    torch.set_default_device(device)
    # expect: py-cuda-device-string
    torch.set_default_tensor_type("torch.cuda.FloatTensor")
    # expect: py-cuda-device-string
    lm = AutoModelForCausalLM.from_pretrained("gpt2", device_map=device)
    # expect: py-cuda-device-string
    pipe = pipeline("text-generation", model="gpt2", device=device)
    # expect: py-cuda-device-string
    cfg = {"device": ("cuda" if torch.cuda.is_available()
                      else "mps" if torch.backends.mps.is_available()
                      else "cpu"), "epochs": 3}
    # expect: py-cuda-device-string
    cfg["device"] = ("cuda" if torch.cuda.is_available()
                     else "mps" if torch.backends.mps.is_available()
                     else "cpu")
    # expect: py-cuda-device-string
    device_type = ("cuda" if torch.cuda.is_available()
                   else "mps" if torch.backends.mps.is_available()
                   else "cpu")
    # todo-expect: py-cuda-device-string
    x = x.to("cuda:%d" % rank)
    return x, y, g, state, lm, pipe, cfg, dev, device_type


def guarded(x):
    if torch.cuda.is_available():
        # expect-guarded: py-cuda-device-string
        device = "cuda"
    else:
        device = "cpu"
    # expect-guarded: py-cuda-device-string
    dev = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
    if torch.cuda.is_available():
        # expect-guarded: py-cuda-device-string
        x = x.to("cuda")
    return device, dev, x


def _gather_for_zero3(weight):
    # A private helper the file calls only under a DeepSpeed ZeRO-3 run: guarded like its call.
    # expect-guarded: py-cuda-device-string
    return weight.to(torch.device("cuda", 0))


def _move_always(weight):
    # The trap: one of its calls is not guarded, so neither is it.
    # expect: py-cuda-device-string
    if torch.cuda.is_available():
        device = torch.device("cuda")
    elif torch.backends.mps.is_available():
        device = torch.device("mps")
    else:
        device = torch.device("cpu")
    return weight.to(device)


def gather(weight):
    if is_deepspeed_zero3_enabled():
        weight = _gather_for_zero3(weight)
    if torch.cuda.is_available():
        weight = _move_always(weight)
    return _move_always(weight)


def negatives(x, device, args):
    # ok: py-cuda-device-string
    x = x.to(device)
    # ok: py-cuda-device-string
    x = x.to("cpu")
    # ok: py-cuda-device-string
    x = x.to("mps")
    # ok: py-cuda-device-string
    x = x.to(torch.float16)
    # ok: py-cuda-device-string
    dev = torch.device("mps")
    # ok: py-cuda-device-string
    state = torch.load("ckpt.pt", map_location="cpu")
    # ok: py-cuda-device-string
    print("cuda")
    # ok: py-cuda-device-string
    logger.info("moving model to %s", "cuda")
    # ok: py-cuda-device-string
    if device == "cuda":
        # ok: py-cuda-device-string
        message = "cuda"
    # ok: py-cuda-device-string
    is_cuda = x.device.type == "cuda"
    # ok: py-cuda-device-string
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        pass
    # ok: py-cuda-device-string
    lm = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
    # ok: py-cuda-device-string
    os.environ["CUDA_VISIBLE_DEVICES"] = "0"
    # ok: py-cuda-device-string
    device = "cpu"
    # ok: py-cuda-device-string
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    # ok: py-cuda-device-string
    name = "cuda_graphs"
    # ok: py-cuda-device-string
    scaler = torch.amp.GradScaler(device="cuda")
    return x, dev, state, is_cuda, lm, device, name, scaler


# ok: py-cuda-device-string
def run(device="cuda"):
    return device


def cli():
    parser = argparse.ArgumentParser()
    # ok: py-cuda-device-string
    parser.add_argument("--device", default="cuda", help="cuda, mps or cpu")
    return parser.parse_args()


def formatted_devices(rank, local_rank, x):
    # expect: py-cuda-device-string
    a = torch.device("cuda:{:d}".format(rank))
    # expect: py-cuda-device-string
    b = torch.device("cuda:%d" % rank)
    # expect: py-cuda-device-string
    c = torch.device("cuda:" + str(rank))
    # expect: py-cuda-device-string
    y = x.to("cuda:{}".format(local_rank))
    # expect: py-cuda-device-string
    device = "cuda:%d" % local_rank
    # ok: py-cuda-device-string
    label = "cuda:%d" % rank
    # ok: py-cuda-device-string
    d = torch.device("mps:{}".format(rank))
    # ok: py-cuda-device-string
    print("cuda:{}".format(rank))
    return a, b, c, y, device, label, d


def _torch_device(idx):
    if idx == -1:
        return "cpu"
    # expect: py-cuda-device-string
    return f"cuda:{idx}"


def describe(idx):
    # ok: py-cuda-device-string
    return f"cuda:{idx}"


class CUDAAccelerator:
    # ok: py-cuda-device-string
    def device_name(self):
        # ok: py-cuda-device-string
        return "cuda"
