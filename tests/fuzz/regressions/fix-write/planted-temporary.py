#path: train.py.mpsready-fix.tmp
import torch
x = torch.zeros(1).cuda()
