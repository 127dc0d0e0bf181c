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
