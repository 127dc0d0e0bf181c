"""Backbone with synchronised batch norm.

nn.SyncBatchNorm.convert_sync_batchnorm(model) in a docstring is not a finding.
"""
from functools import partial

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn import SyncBatchNorm
from torchvision.models import resnet50
from mmcv.cnn import build_norm_layer

# expect: py-sync-batchnorm
NORM_LAYERS = {"BN": nn.BatchNorm2d, "SyncBN": nn.SyncBatchNorm}


class Head(nn.Module):
    def __init__(self, channels):
        super().__init__()
        # expect: py-sync-batchnorm
        self.bn = nn.SyncBatchNorm(channels)
        # expect: py-sync-batchnorm
        self.bn2 = SyncBatchNorm(channels, momentum=0.01)
        # expect: py-sync-batchnorm
        self.bn3 = torch.nn.SyncBatchNorm(channels, process_group=None)


# expect: py-sync-batchnorm
def make_block(channels, norm_layer=nn.SyncBatchNorm):
    return norm_layer(channels)


def get_norm(args):
    # expect: py-sync-batchnorm
    norm = nn.SyncBatchNorm if args.sync_bn else nn.BatchNorm2d
    # expect: py-sync-batchnorm
    norm2 = partial(nn.SyncBatchNorm, momentum=0.01)
    return norm, norm2


def default_norm():
    # expect: py-sync-batchnorm
    return SyncBatchNorm


def build(args):
    # expect: py-sync-batchnorm
    model = resnet50(norm_layer=nn.SyncBatchNorm)
    # expect: py-sync-batchnorm
    model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    # expect: py-sync-batchnorm
    model = torch.nn.SyncBatchNorm.convert_sync_batchnorm(model, process_group=None)
    # expect: py-sync-batchnorm
    norm_cls = nn.SyncBatchNorm
    return model, norm_cls


def build_guarded(model):
    if torch.cuda.is_available() and dist.is_initialized():
        # expect-guarded: py-sync-batchnorm
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    # expect-guarded: py-sync-batchnorm
    norm = nn.SyncBatchNorm if torch.cuda.is_available() else nn.BatchNorm2d
    return model, norm


def param_groups(model):
    decay, no_decay = [], []
    for m in model.modules():
        # ok: py-sync-batchnorm
        if isinstance(m, (nn.BatchNorm2d, nn.SyncBatchNorm)):
            no_decay.extend(m.parameters())
        # ok: py-sync-batchnorm
        elif isinstance(m, nn.SyncBatchNorm):
            no_decay.extend(m.parameters())
        # ok: py-sync-batchnorm
        elif type(m) is nn.SyncBatchNorm:
            no_decay.extend(m.parameters())
        else:
            decay.extend(m.parameters())
    return decay, no_decay


def negatives(channels, cfg):
    # ok: py-sync-batchnorm
    bn = nn.BatchNorm2d(channels)
    # ok: py-sync-batchnorm
    layer = build_norm_layer(dict(type="SyncBN"), channels)
    # ok: py-sync-batchnorm
    print("converting BatchNorm to nn.SyncBatchNorm")
    # ok: py-sync-batchnorm
    norm_name = "SyncBatchNorm" if cfg.sync else "BatchNorm2d"
    # ok: py-sync-batchnorm
    norm_types = (nn.BatchNorm1d, nn.BatchNorm2d, nn.SyncBatchNorm)
    return bn, layer, norm_name, norm_types
