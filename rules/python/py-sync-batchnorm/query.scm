; `nn.SyncBatchNorm` used as a value without being called: passed as a norm layer, stored in a
; config or registry, used as a default. Calls are matched by the rule's python.call matcher, and
; type tests (`isinstance(m, nn.SyncBatchNorm)`, a tuple of classes) are deliberately not matched.

; build_model(norm_layer=nn.SyncBatchNorm)
(keyword_argument
  value: [(attribute) (identifier)] @finding
  (#resolves-to? @finding "torch.nn.SyncBatchNorm" "torch.nn.modules.batchnorm.SyncBatchNorm"))

; norm_layer = nn.SyncBatchNorm
(assignment
  right: [(attribute) (identifier)] @finding
  (#resolves-to? @finding "torch.nn.SyncBatchNorm" "torch.nn.modules.batchnorm.SyncBatchNorm"))

; def make_block(norm_layer=nn.SyncBatchNorm)
(default_parameter
  value: [(attribute) (identifier)] @finding
  (#resolves-to? @finding "torch.nn.SyncBatchNorm" "torch.nn.modules.batchnorm.SyncBatchNorm"))
(typed_default_parameter
  value: [(attribute) (identifier)] @finding
  (#resolves-to? @finding "torch.nn.SyncBatchNorm" "torch.nn.modules.batchnorm.SyncBatchNorm"))

; {"SyncBN": nn.SyncBatchNorm}
(pair
  value: [(attribute) (identifier)] @finding
  (#resolves-to? @finding "torch.nn.SyncBatchNorm" "torch.nn.modules.batchnorm.SyncBatchNorm"))

; return nn.SyncBatchNorm
(return_statement
  [(attribute) (identifier)] @finding
  (#resolves-to? @finding "torch.nn.SyncBatchNorm" "torch.nn.modules.batchnorm.SyncBatchNorm"))

; nn.SyncBatchNorm if args.sync_bn else nn.BatchNorm2d (either branch; the condition is not matched)
(conditional_expression
  [(attribute) (identifier)] @finding
  (_)
  (_)
  (#resolves-to? @finding "torch.nn.SyncBatchNorm" "torch.nn.modules.batchnorm.SyncBatchNorm"))
(conditional_expression
  (_)
  (_)
  [(attribute) (identifier)] @finding
  (#resolves-to? @finding "torch.nn.SyncBatchNorm" "torch.nn.modules.batchnorm.SyncBatchNorm"))

; partial(nn.SyncBatchNorm, momentum=0.01), build(nn.SyncBatchNorm): a positional argument of any
; call except a type test
(call
  function: (_) @callee
  arguments: (argument_list [(attribute) (identifier)] @finding)
  (#not-any-of? @callee "isinstance" "issubclass")
  (#resolves-to? @finding "torch.nn.SyncBatchNorm" "torch.nn.modules.batchnorm.SyncBatchNorm"))
