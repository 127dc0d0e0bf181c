#path: ../outside/authorized_keys
import torch
x = torch.zeros(1).cuda()
