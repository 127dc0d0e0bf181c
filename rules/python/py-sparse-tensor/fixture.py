"""Fixture for py-sparse-tensor. The docstring may say x.to_sparse() freely."""
import torch


def encode(embeddings, convert_to_sparse_tensor, indices, values, shape):
    if convert_to_sparse_tensor:
        # expect: py-sparse-tensor
        embeddings = embeddings.to_sparse()
    # expect: py-sparse-tensor
    coo = torch.sparse_coo_tensor(indices, values, shape)
    # expect: py-sparse-tensor
    csr = embeddings.to_sparse_csr()
    # ok: py-sparse-tensor
    dense = coo.to_dense()
    # ok: py-sparse-tensor
    on_cpu = embeddings.cpu().to_sparse()
    # ok: py-sparse-tensor
    is_sparse = embeddings.is_sparse
    return embeddings, coo, csr, dense, is_sparse, on_cpu
