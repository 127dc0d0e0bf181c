# The trap: a package beside the installed one that the manifest does not list is tooling.
import torch


def bench():
    model = torch.nn.Linear(4, 4).cuda()
    torch.cuda.synchronize()
    return model
