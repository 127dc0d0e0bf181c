import torch

from fastfit.precision import Fp8Precision, Precision


def pick_device(name="auto"):
    if name != "auto":
        return torch.device(name)
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


class Trainer:
    def __init__(self, precision="32", device="auto"):
        self._precision_flag = precision
        self.device = pick_device(device)
        self.precision = self._init_precision()

    def _init_precision(self):
        if self._precision_flag == "fp8":
            return Fp8Precision()
        return Precision()

    def fit(self, model, batches, lr=0.1):
        model = model.to(self.device)
        optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        for x, y in batches:
            with self.precision.forward_context():
                loss = torch.nn.functional.mse_loss(model(x.to(self.device)), y.to(self.device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        return model
