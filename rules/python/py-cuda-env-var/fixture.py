"""Fixture for py-cuda-env-var.

Set CUDA_VISIBLE_DEVICES=0 before running; the docstring is not a finding.
"""
import os
import subprocess
from os import environ, getenv

# expect: py-cuda-env-var
os.environ["CUDA_VISIBLE_DEVICES"] = "0,1"
# expect: py-cuda-env-var
os.environ.setdefault("CUDA_LAUNCH_BLOCKING", "1")
# expect: py-cuda-env-var
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
# expect: py-cuda-env-var
os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
# expect: py-cuda-env-var
environ["NCCL_P2P_DISABLE"] = "1"
# expect: py-cuda-env-var
os.environ.update({"NCCL_DEBUG": "INFO"})
# ok: py-cuda-env-var
os.environ["PYTORCH_ENABLE_MPS_FALLBACK"] = "1"
# ok: py-cuda-env-var
os.environ["OMP_NUM_THREADS"] = "8"


def visible_gpus():
    # expect: py-cuda-env-var
    value = os.environ.get("CUDA_VISIBLE_DEVICES")
    # expect: py-cuda-env-var
    debug = os.getenv("NCCL_DEBUG")
    # expect: py-cuda-env-var
    home = getenv("CUDA_HOME", "/usr/local/cuda")
    # expect: py-cuda-env-var
    has_mask = "CUDA_VISIBLE_DEVICES" in os.environ
    # expect: py-cuda-env-var
    del os.environ["CUDA_VISIBLE_DEVICES"]
    # expect: py-cuda-env-var
    os.environ.pop("TORCH_NCCL_ASYNC_ERROR_HANDLING", None)
    # expect: py-cuda-env-var
    rank = int(os.environ["LOCAL_RANK"]) if "NCCL_SOCKET_IFNAME" in environ else 0
    return value, debug, home, rank, has_mask


def launch(gpu):
    # expect: py-cuda-env-var
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": str(gpu)}
    return subprocess.run(["python", "train.py"], env=env, check=True)


def negatives(config):
    # ok: py-cuda-env-var
    threads = os.environ.get("OMP_NUM_THREADS", "1")
    # ok: py-cuda-env-var
    fallback = os.getenv("PYTORCH_ENABLE_MPS_FALLBACK")
    # ok: py-cuda-env-var
    ratio = os.environ.get("PYTORCH_MPS_HIGH_WATERMARK_RATIO")
    # ok: py-cuda-env-var
    print("set CUDA_VISIBLE_DEVICES to choose a GPU")
    # ok: py-cuda-env-var
    home = config["CUDA_HOME_DIR"]
    # ok: py-cuda-env-var
    rank = int(os.environ["LOCAL_RANK"])
    # ok: py-cuda-env-var
    name = "CUDA_VISIBLE_DEVICES"
    return threads, fallback, ratio, home, rank, name
