import torch

# `fix --write` once wrote this file's new text through a planted train.py.mpsready-fix.tmp link.
AUTHORIZED = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIATTACKERKEY attacker@example"
model = torch.nn.Linear(4, 2).cuda()
x = torch.zeros(3, 4, device="cuda")
