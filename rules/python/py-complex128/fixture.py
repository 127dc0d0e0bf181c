"""Fixture for py-complex128.

Docstrings may say torch.complex128 or x.cdouble() without being findings.
"""
import numpy as np
import torch
import torch as t
from torch import cdouble


def spectral(x, device):
    # expect: py-complex128
    spec = torch.fft.fft(x.to(torch.complex128))
    # expect: py-complex128
    kernel = torch.zeros(16, dtype=t.cdouble, device=device)
    # expect: py-complex128
    phase = torch.ones(16, dtype=cdouble)
    # expect: py-complex128
    z = x.cdouble()
    # expect: py-complex128
    w = torch.polar(x.double(), x.double()).to(torch.complex128)
    return spec, kernel, phase, z, w


def from_numpy_data(arr, device):
    # expect: py-complex128
    a = torch.from_numpy(arr.astype(np.complex128)).to(device)
    # expect: py-complex128
    b = torch.tensor(np.exp(1j * arr).astype(np.cdouble))
    # todo-expect: py-complex128
    c = torch.from_numpy(np.fft.fft(arr))
    return a, b, c


def guarded(x, device):
    if torch.cuda.is_available():
        # expect-guarded: py-complex128
        x = x.cdouble()
    # expect-guarded: py-complex128
    dtype = torch.complex128 if device.type == "cuda" else torch.complex64
    return x, dtype


def negatives(x, arr):
    # ok: py-complex128
    a = x.to(torch.complex64)
    # ok: py-complex128
    b = x.cfloat()
    # ok: py-complex128
    c = torch.zeros(4, dtype=torch.cfloat)
    # ok: py-complex128
    d = np.fft.fft(arr).astype(np.complex128)
    # ok: py-complex128
    e = torch.from_numpy(arr.astype(np.complex64))
    # ok: py-complex128
    print("complex128 is not supported on MPS; use .cdouble() only on the CPU")
    # ok: py-complex128
    use_cdouble = False
    # ok: py-complex128
    f = torch.view_as_complex(torch.randn(4, 2))
    return a, b, c, d, e, use_cdouble, f


def dtype_checks(x):
    # todo-ok: py-complex128
    if x.dtype == torch.complex128:
        return x.to(torch.complex64)
    return x
