; A "cuda" / "cuda:N" / f"cuda:{rank}" string assigned to a variable, attribute or key whose
; name contains "device". Annotated fields in a class body belong to py-cuda-default-device.

; device = "cuda"   self.device = "cuda:0"   (no annotation)
((assignment
   left: [
     (identifier) @n
     (attribute attribute: (identifier) @n)
   ]
   !type
   right: (string) @finding)
 (#match? @n "(?i)device")
 (#string-match? @finding "^cuda(:([0-9]+|\\{\\}))?$"))

; DEVICE: str = "cuda" at module level
((module
   (expression_statement
     (assignment
       left: (identifier) @n
       type: (_)
       right: (string) @finding)))
 (#match? @n "(?i)device")
 (#string-match? @finding "^cuda(:([0-9]+|\\{\\}))?$"))

; self.device: str = "cuda" as a statement of a function body
((function_definition
   body: (block
     (expression_statement
       (assignment
         left: [
           (identifier) @n
           (attribute attribute: (identifier) @n)
         ]
         type: (_)
         right: (string) @finding))))
 (#match? @n "(?i)device")
 (#string-match? @finding "^cuda(:([0-9]+|\\{\\}))?$"))

; cfg["device"] = "cuda"
((assignment
   left: (subscript subscript: (string) @n)
   right: (string) @finding)
 (#match? @n "(?i)device")
 (#string-match? @finding "^cuda(:([0-9]+|\\{\\}))?$"))

; {"device": "cuda"}
((pair
   key: (string) @n
   value: (string) @finding)
 (#match? @n "(?i)device")
 (#string-match? @finding "^cuda(:([0-9]+|\\{\\}))?$"))

; def _torch_device(idx): return f"cuda:{idx}"   (a helper that maps device indices to CUDA only;
; a plain "cuda" returned by a per-backend class, `CUDAAccelerator.device_name`, is its job)
((function_definition
   name: (identifier) @fn
   body: (block (return_statement (string) @finding)))
 (#match? @fn "(?i)device")
 (#string-match? @finding "^cuda:\\{\\}$"))

; torch.device("cuda:{:d}".format(rank))   torch.device("cuda:%d" % rank)   torch.device("cuda:" + str(rank))
; (f"cuda:{rank}" is a plain string literal and is matched by the call matchers)
((call
   function: (_) @fn
   arguments: (argument_list
     .
     [
       (call function: (attribute object: (string) @s attribute: (identifier) @m))
       (binary_operator left: (string) @s)
     ] @finding))
 (#resolves-to? @fn "torch.device" "torch.set_default_device")
 (#string-match? @s "^cuda:(\\{[^}]*\\}|%[dis])?$"))

; x.to("cuda:{}".format(rank))   x.to("cuda:%d" % rank)   x.to("cuda:" + str(rank))
((call
   function: (attribute attribute: (identifier) @to)
   arguments: (argument_list
     .
     [
       (call function: (attribute object: (string) @s attribute: (identifier) @m))
       (binary_operator left: (string) @s)
     ] @finding))
 (#eq? @to "to")
 (#string-match? @s "^cuda:(\\{[^}]*\\}|%[dis])?$"))

; device = "cuda:{}".format(rank)   self.device = "cuda:%d" % rank   device = "cuda:" + str(rank)
((assignment
   left: [
     (identifier) @n
     (attribute attribute: (identifier) @n)
   ]
   right: [
     (call function: (attribute object: (string) @s attribute: (identifier) @m))
     (binary_operator left: (string) @s)
   ] @finding)
 (#match? @n "(?i)device")
 (#string-match? @s "^cuda:(\\{[^}]*\\}|%[dis])?$"))
