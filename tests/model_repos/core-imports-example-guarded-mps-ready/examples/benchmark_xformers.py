import xformers.ops

# Nothing in the package imports this example: it stays an example.
print(xformers.ops.memory_efficient_attention)
