# The README runs the tests too, but a test checks the code rather than uses it: it stays a test.
import torch


def test_linear():
    model = torch.nn.Linear(4, 4)
    model = model.cuda()
    assert model is not None
