import torch
from flash_attn import flash_attn_func

if __name__ == "__main__":
    q = torch.zeros(1, 4, 2, 8)
    print(flash_attn_func(q, q, q))
