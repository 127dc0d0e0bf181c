; A `raise` on the branch a Mac takes. The forms `if not torch.cuda.is_available(): raise` and
; `assert torch.cuda.is_available()` belong to py-cuda-required, which supersedes this rule.
; Test skips (`raise unittest.SkipTest`) and branches that mention MPS are left alone.

; if CUDA_HOME is None: raise ...   if d.type != "cuda" and d.type != "xpu": raise ...
((if_statement
   condition: (_) @cond
   consequence: (block (raise_statement) @finding) @body) @if
 (#holds-without-cuda? @cond)
 (#not-mentions? @if "mps")
 (#not-match? @finding "(?i)skip"))

; if torch.cuda.is_available() and CUDA_HOME is not None: ... else: raise ...
((if_statement
   condition: (_) @cond
   alternative: (else_clause body: (block (raise_statement) @finding))) @if
 (#needs-cuda? @cond)
 (#not-mentions? @if "mps")
 (#not-match? @finding "(?i)skip"))
