import triton

from tinynet import TinyNet

print(triton.__version__, TinyNet())
