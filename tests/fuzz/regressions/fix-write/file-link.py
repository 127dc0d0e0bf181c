#path: linked.py
import torch
x = torch.zeros(1).cuda()
