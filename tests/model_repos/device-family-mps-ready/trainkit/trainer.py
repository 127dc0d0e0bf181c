import torch

from trainkit.accelerators import ACCELERATORS, CUDAAccelerator, MPSAccelerator


def choose_accelerator(flag):
    if flag != "auto":
        return flag
    if MPSAccelerator.is_available():
        return "mps"
    if CUDAAccelerator.is_available():
        return "cuda"
    return "cpu"


class Trainer:
    def __init__(self, accelerator="auto", devices=1):
        self._accelerator_flag = choose_accelerator(accelerator)
        self.accelerator = ACCELERATORS[self._accelerator_flag]()
        self.devices = self.accelerator.parallel_devices(devices)

    def fit(self, model, batches, lr=0.1):
        device = self.devices[0]
        self.accelerator.setup_device(device)
        model = model.to(device)
        optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        for x, y in batches:
            loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        return model
