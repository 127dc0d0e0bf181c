"""A graph layer that keeps its adjacency matrix sparse; docstrings may say x.to_sparse()."""
import torch
from torch import nn


class GraphConv(nn.Module):
    def __init__(self, adj: torch.Tensor, dim: int):
        super().__init__()
        # expect: py-sparse-module-state
        self.register_buffer("adj", adj.to_sparse())
        # expect: py-sparse-module-state
        self.register_buffer("mask", torch.sparse_coo_tensor(adj.nonzero().T, adj[adj != 0]))
        # expect: py-sparse-module-state
        self.adj_csr = adj.to_sparse_csr()
        # ok: py-sparse-module-state
        self.register_buffer("dense", adj.clone())
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        # A sparse tensor built where it is used, on the input's device, is not module state.
        # ok: py-sparse-module-state
        adj = self.dense.to_sparse()
        return torch.sparse.mm(adj, self.fc(x))
