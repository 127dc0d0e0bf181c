; if "cuda" in device: ... elif device == "cpu": ... else: raise ValueError(...)
; A chain that tests the device against "cpu" and "cuda" and whose `else` raises: every other
; device, `mps` included, is refused. A chain that names "mps" anywhere is left alone.

; the `cpu` test first
((if_statement
   condition: (_) @first
   alternative: (elif_clause condition: (_) @second)
   alternative: (else_clause body: (block . (raise_statement))) .) @finding
 (#match? @first "[\"']cpu[\"']")
 (#match? @second "[\"']cuda(:[0-9]+)?[\"']")
 (#not-match? @finding "mps"))

; the `cuda` test first
((if_statement
   condition: (_) @first
   alternative: (elif_clause condition: (_) @second)
   alternative: (else_clause body: (block . (raise_statement))) .) @finding
 (#match? @first "[\"']cuda(:[0-9]+)?[\"']")
 (#match? @second "[\"']cpu[\"']")
 (#not-match? @finding "mps"))
