"""Times TinyNet's forward pass on the GPU."""
import time

import torch

from tinynet import TinyNet

model = TinyNet().cuda()
x = torch.randn(64, 16, device="cuda")
torch.cuda.synchronize()
start = time.time()
for _ in range(100):
    model(x)
torch.cuda.synchronize()
print(f"{(time.time() - start) * 10:.2f} ms per step")
