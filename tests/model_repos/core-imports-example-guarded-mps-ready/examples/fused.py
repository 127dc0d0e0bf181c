import apex.normalization


def fused_norm(x):
    return apex.normalization.FusedLayerNorm(x.shape[-1]).cuda()(x)
