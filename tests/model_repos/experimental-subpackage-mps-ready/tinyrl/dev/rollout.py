# An experimental rollout worker that nothing in the package imports: a user who wants it imports
# it by name, on a CUDA machine.
import triton


def blocks(n: int) -> int:
    return triton.cdiv(n, 128)
