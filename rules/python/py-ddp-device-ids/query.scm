; DistributedDataParallel(model, device_ids=[local_rank], output_device=local_rank)
; Only values that pin a device are reported: `device_ids=None` is the fix, and a conditional value
; (`[rank] if torch.cuda.is_available() else None`) already chooses per device.
(call
  function: (_) @callee
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @kw
      value: [(list) (tuple) (identifier) (attribute) (subscript) (integer) (call) (string) (binary_operator)] @value) @finding)
  (#any-of? @kw "device_ids" "output_device")
  (#resolves-to? @callee
    "torch.nn.parallel.DistributedDataParallel"
    "torch.nn.parallel.distributed.DistributedDataParallel"))

; DistributedDataParallel(model, [local_rank]): device_ids passed by position
(call
  function: (_) @callee
  arguments: (argument_list
    .
    (_)
    .
    [(list) (tuple) (identifier) (attribute) (subscript)] @finding)
  (#resolves-to? @callee
    "torch.nn.parallel.DistributedDataParallel"
    "torch.nn.parallel.distributed.DistributedDataParallel"))
