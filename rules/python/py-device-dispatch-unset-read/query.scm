; The chain of py-device-dispatch-no-mps; this rule reports the first later read of the name it sets.
; if self.device == "cpu": self.device_type = "cpu"
; elif "cuda" in self.device: self.device_type = "cuda"
; A chain that tests the device against "cpu" and "cuda", sets the same name in both branches and
; ends without an `else`: on `mps` nothing is set. The elif must be the chain's last clause (the
; anchor), and a chain that names "mps" anywhere is left alone.

; the `cpu` test first
((if_statement
   condition: (_) @first
   consequence: (block (expression_statement (assignment left: (_) @target)))
   alternative: (elif_clause
                  condition: (_) @second
                  consequence: (block (expression_statement (assignment left: (_) @other)))) .) @finding
 (#eq? @target @other)
 (#match? @first "[\"']cpu[\"']")
 (#match? @second "[\"']cuda(:[0-9]+)?[\"']")
 (#not-match? @finding "mps"))

; the `cuda` test first
((if_statement
   condition: (_) @first
   consequence: (block (expression_statement (assignment left: (_) @target)))
   alternative: (elif_clause
                  condition: (_) @second
                  consequence: (block (expression_statement (assignment left: (_) @other)))) .) @finding
 (#eq? @target @other)
 (#match? @first "[\"']cuda(:[0-9]+)?[\"']")
 (#match? @second "[\"']cpu[\"']")
 (#not-match? @finding "mps"))
