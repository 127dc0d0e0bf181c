from mamba_ssm.ops.selective_scan_interface import selective_scan_fn


def fused_gelu(x):
    return selective_scan_fn(x, x, x, x, x)
