import torch

try:
    from apex import amp
    has_apex = True
except ImportError:
    amp = None
    has_apex = False

# Keep sigmoid in fp32 under Apex's mixed precision.
amp.register_float_function(torch, "sigmoid")


class ApexScaler:
    state_dict_key = "amp"

    def __call__(self, loss, optimizer):
        with amp.scale_loss(loss, optimizer) as scaled_loss:
            scaled_loss.backward()
        optimizer.step()

    def state_dict(self):
        return amp.state_dict()


class NativeScaler:
    state_dict_key = "amp_scaler"

    def __init__(self, device="cpu"):
        self._scaler = torch.amp.GradScaler(device)

    def __call__(self, loss, optimizer):
        self._scaler.scale(loss).backward()
        self._scaler.step(optimizer)
        self._scaler.update()

    def state_dict(self):
        return self._scaler.state_dict()
