; dist.init_process_group(dist.Backend.NCCL, ...): the backend enum as the first positional argument
(call
  function: (_) @callee
  arguments: (argument_list . [(attribute) (identifier)] @finding)
  (#resolves-to? @callee
    "torch.distributed.init_process_group"
    "torch.distributed.distributed_c10d.init_process_group")
  (#resolves-to? @finding
    "torch.distributed.Backend.NCCL"
    "torch.distributed.distributed_c10d.Backend.NCCL"))

; init_process_group(backend=dist.Backend.NCCL) / new_group(ranks, backend=dist.Backend.NCCL)
(call
  function: (_) @callee
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @kw
      value: [(attribute) (identifier)] @finding))
  (#eq? @kw "backend")
  (#resolves-to? @callee
    "torch.distributed.init_process_group"
    "torch.distributed.distributed_c10d.init_process_group"
    "torch.distributed.new_group"
    "torch.distributed.distributed_c10d.new_group"
    "torch.distributed.new_subgroups"
    "torch.distributed.new_subgroups_by_enumeration")
  (#resolves-to? @finding
    "torch.distributed.Backend.NCCL"
    "torch.distributed.distributed_c10d.Backend.NCCL"))
