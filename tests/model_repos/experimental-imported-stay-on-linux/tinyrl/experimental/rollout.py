# The same experimental module, imported by the package's __init__: every import of the package
# runs this line.
import triton


def blocks(n: int) -> int:
    return triton.cdiv(n, 128)
